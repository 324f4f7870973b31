/**
 * `npm run bench:tokenizers`: the o200k tokenizers on the registry, side by
 * side on the model-view text of every real fixture (and a generated
 * session): throughput, exactness against gpt-tokenizer's count (the
 * reference the project ships, checked against OpenAI's published vectors by
 * its authors), and the time to first count (import and table build).
 *
 * Only gpt-tokenizer is a dependency; the others are measured when present
 * (`npm i --no-save js-tiktoken tiktoken` first), so the choice in the README
 * can be re-checked by anyone. Every candidate is wrapped in the same
 * long-piece bound (core/token-pieces.ts): unbounded, each is quadratic.
 */
import { readFileSync } from "node:fs";
import { countBounded } from "../core/token-pieces.ts";
import { messageSegments } from "../core/model-view.ts";
import { loadSession } from "../core/session.ts";
import { fixtureFiles } from "../scripts/fixture-files.ts";
import { generatePiSession } from "./generate.ts";

interface Candidate {
  name: string;
  load: () => Promise<(text: string) => number>;
}

const CANDIDATES: Candidate[] = [
  {
    name: "gpt-tokenizer",
    load: async () => {
      const m = await import("gpt-tokenizer/encoding/o200k_base");
      const plain = { disallowedSpecial: new Set<string>() };
      return (text) => m.countTokens(text, plain);
    },
  },
  {
    name: "js-tiktoken",
    load: async () => {
      const m = (await import("js-tiktoken" as string)) as { getEncoding(name: string): { encode(t: string, a?: unknown, d?: unknown): number[] } };
      const encoding = m.getEncoding("o200k_base");
      return (text) => encoding.encode(text, [], []).length;
    },
  },
  {
    name: "tiktoken (WASM)",
    load: async () => {
      const m = (await import("tiktoken" as string)) as { get_encoding(name: string): { encode_ordinary(t: string): Uint32Array } };
      const encoding = m.get_encoding("o200k_base");
      return (text) => encoding.encode_ordinary(text).length;
    },
  },
];

function corpus(): { name: string; texts: string[] }[] {
  const sets: { name: string; texts: string[] }[] = [];
  const all: string[] = [];
  try {
    for (const file of fixtureFiles()) {
      try {
        const session = loadSession(readFileSync(file.path));
        for (const message of session.branch(session.defaultLeafId)) for (const segment of messageSegments(message, session.format)) if (segment.text) all.push(segment.text);
      } catch {
        // A fixture this reader refuses is not a tokenizer's concern.
      }
    }
  } catch {
    // No fixtures on this machine: the generated session alone.
  }
  if (all.length) sets.push({ name: "real fixtures", texts: all });
  const generated = loadSession(new TextEncoder().encode(generatePiSession(Number(process.env.MB ?? 20) * 1e6)));
  const texts: string[] = [];
  for (const message of generated.branch(generated.defaultLeafId)) for (const segment of messageSegments(message, generated.format)) if (segment.text) texts.push(segment.text);
  sets.push({ name: `generated ${process.env.MB ?? 20} MB`, texts });
  return sets;
}

const sets = corpus();
let reference: number[] | undefined;
console.log("| tokenizer | corpus | MB of text | MB/s | first count (ms) | tokens | differs from gpt-tokenizer |");
console.log("|---|---|---|---|---|---|---|");
for (const candidate of CANDIDATES) {
  let count: (text: string) => number;
  const started = performance.now();
  try {
    const raw = await candidate.load();
    count = (text) => countBounded(text, raw).tokens;
    count("warm up");
  } catch (error) {
    console.log(`| ${candidate.name} | not installed (${(error as Error).message.split("\n")[0]}) | | | | | |`);
    continue;
  }
  const firstMs = performance.now() - started;
  sets.forEach((set, index) => {
    const chars = set.texts.reduce((sum, t) => sum + t.length, 0);
    const at = performance.now();
    const counts = set.texts.map(count);
    const ms = performance.now() - at;
    const total = counts.reduce((a, b) => a + b, 0);
    if (candidate.name === "gpt-tokenizer" && index === 0) reference = counts;
    const differing = index === 0 && reference ? counts.filter((c, i) => c !== reference![i]).length : undefined;
    console.log(
      `| ${candidate.name} | ${set.name} | ${(chars / 1e6).toFixed(1)} | ${(chars / 1e6 / (ms / 1000)).toFixed(1)} | ${firstMs.toFixed(0)} | ${total} | ${differing === undefined ? "" : `${differing} of ${counts.length} texts`} |`,
    );
  });
}
