/**
 * The o200k count on the shapes that break a naive BPE (issue #26): one
 * character repeated, random base64 and hex, random letters, CJK without
 * spaces, emoji runs, a minified line, mixed. Each is counted at 1 MB and at
 * 4 MB: linear time means the time per MB stays the same (the "4 MB ÷ 1 MB
 * per MB" column near 1×; quadratic would be 4×). Beside it, a floor
 * measured in the same run on the same text: encoding it as UTF-8 and
 * scanning it with the pre-tokenizer's regex, the least any BPE counter
 * does.
 *
 * Then a session of three long unbroken user messages, compacted with and
 * without the token stats (`compact --token-counts` against the default).
 */
import { compactSession } from "../core/compact.ts";
import { loadSession } from "../core/session.ts";
import { O200K, loadTokenizer } from "../core/tokens.ts";

type Shape = (chars: number, random: () => number) => string;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const pick = (alphabet: string, chars: number, random: () => number) => Array.from({ length: chars }, () => alphabet[random() % alphabet.length]).join("");
const cjkChar = (random: () => number) => String.fromCharCode(0x4e00 + (random() % 3000));

export const SHAPES: Record<string, Shape> = {
  "one character repeated": (chars) => "a".repeat(chars),
  "random base64": (chars, random) => pick(BASE64, chars, random),
  "random hex": (chars, random) => pick("0123456789abcdef", chars, random),
  "random letters, no spaces": (chars, random) => pick("abcdefghijklmnopqrstuvwxyz", chars, random),
  "CJK without spaces": (chars, random) => Array.from({ length: chars }, () => cjkChar(random)).join(""),
  "emoji run": (chars, random) => Array.from({ length: chars / 2 }, () => ["😀", "🎉", "🚀", "✅", "👍🏽"][random() % 5]).join(""),
  "minified line": (chars, random) => {
    const parts: string[] = [];
    for (let size = 0; size < chars;) {
      const part = `function f${random() % 999}(a,b){return a+b*${random() % 99}};var v${random() % 50}={"k":[1,2,3],"s":"${pick(BASE64, random() % 40, random)}"};`;
      parts.push(part);
      size += part.length;
    }
    return parts.join("");
  },
  mixed: (chars, random) => {
    const shapes = [
      SHAPES["random base64"]!,
      SHAPES["CJK without spaces"]!,
      SHAPES["one character repeated"]!,
      (n: number) => "Some prose, with words and 42 numbers. ".repeat(n / 40),
    ];
    const parts: string[] = [];
    for (let size = 0; size < chars;) {
      const part = shapes[random() % shapes.length]!(2000 + (random() % 30000), random);
      parts.push(part);
      size += part.length;
    }
    return parts.join("");
  },
};

const PRETOKENIZER = /[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s+/gu;

export function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
}

/** The fastest of the runs, each on its own text: the tokenizer's merge cache must not carry one run's pieces into the next. */
export function bestMs(texts: readonly string[], task: (text: string) => unknown): number {
  let fastest = Infinity;
  for (const text of texts) {
    const started = performance.now();
    task(text);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

function floor(text: string): number {
  let pieces = new TextEncoder().encode(text).length;
  for (const _ of text.matchAll(PRETOKENIZER)) pieces++;
  return pieces;
}

export interface ShapeRow {
  shape: string;
  mbAt4: number;
  msPerMbAt1: number;
  msPerMbAt4: number;
  floorMsPerMb: number;
}

/** About `mb` UTF-8 megabytes of the shape, different for each seed. */
export function textOfShape(shape: Shape, mb: number, seed: number): string {
  const random = seeded(seed);
  const probe = shape(10_000, seeded(seed));
  const bytesPerChar = new TextEncoder().encode(probe).length / probe.length;
  return shape(Math.round((mb * 1e6) / bytesPerChar), random);
}

export async function tokenShapeRows(runs: number, largeMb = 4): Promise<ShapeRow[]> {
  await loadTokenizer();
  // Warm the tokenizer's code on every shape first, so the first shape measured does not pay for the JIT.
  for (const shape of Object.values(SHAPES)) O200K.count(textOfShape(shape, 0.2, 1));
  const rows: ShapeRow[] = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const seeds = Array.from({ length: runs }, (_, i) => 1000 + i);
    const small = seeds.map((seed) => textOfShape(shape, largeMb / 4, seed));
    const large = seeds.map((seed) => textOfShape(shape, largeMb, seed + 500));
    const mbOf = (text: string) => new TextEncoder().encode(text).length / 1e6;
    const at1 = bestMs(small, (text) => O200K.count(text)) / mbOf(small[0]!);
    const at4 = bestMs(large, (text) => O200K.count(text)) / mbOf(large[0]!);
    const floorMs = bestMs(large, floor) / mbOf(large[0]!);
    rows.push({ shape: name, mbAt4: mbOf(large[0]!), msPerMbAt1: at1, msPerMbAt4: at4, floorMsPerMb: floorMs });
  }
  return rows;
}

const fmt = (mb: number, divisor: number) => (mb / divisor).toFixed(mb / divisor < 1 ? 2 : 0);

export function tokenShapeTable(rows: ShapeRow[]): string[] {
  const lines = [
    `| shape | ms per MB at ${fmt(rows[0]?.mbAt4 ?? 4, 4)} MB | ms per MB at ${fmt(rows[0]?.mbAt4 ?? 4, 1)} MB | 4× the text: per-MB ratio (linear: ~1×) | MB/s at the larger | floor ms per MB | count ÷ floor |`,
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.shape} | ${r.msPerMbAt1.toFixed(0)} | ${r.msPerMbAt4.toFixed(0)} | ${(r.msPerMbAt4 / r.msPerMbAt1).toFixed(2)}× | ${(1000 / r.msPerMbAt4).toFixed(1)} | ${r.floorMsPerMb.toFixed(0)} | ${(r.msPerMbAt4 / r.floorMsPerMb).toFixed(1)}× |`,
    );
  }
  return lines;
}

/** A Pi session whose three user messages are each `messageMb` of unbroken text of the shape. */
export function unbrokenSession(shape: Shape, messageMb: number, seed: number): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id: "01900000-0000-7000-8000-0000unbroken", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/dev/unbroken" })];
  let parent: string | null = null;
  for (let i = 0; i < 3; i++) {
    const id = `0000000${i}`;
    const text = textOfShape(shape, messageMb, seed + i);
    lines.push(
      JSON.stringify({ type: "message", id, parentId: parent, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1767225601000 + i } }),
    );
    parent = id;
    const reply = `a${i}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id: reply,
        parentId: parent,
        timestamp: "2026-01-01T00:00:02.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "Noted." }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "bench",
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
          stopReason: "stop",
          timestamp: 1767225602000 + i,
        },
      }),
    );
    parent = reply;
  }
  return lines.join("\n") + "\n";
}

export interface UnbrokenRow {
  shape: string;
  mb: number;
  withoutCountsMs: number;
  withCountsMs: number;
}

export async function unbrokenRows(runs: number, messageMb: number): Promise<UnbrokenRow[]> {
  await loadTokenizer();
  const rows: UnbrokenRow[] = [];
  for (const name of ["random letters, no spaces", "CJK without spaces", "random base64"]) {
    // Each compaction with counts reads its own session, so no run counts pieces the tokenizer has cached.
    const sessions = Array.from({ length: runs }, (_, round) => new TextEncoder().encode(unbrokenSession(SHAPES[name]!, messageMb, 7000 + round * 10)));
    const bytes = sessions[0]!;
    const compact = async (countTokens: boolean, bytes: Uint8Array) => {
      const session = loadSession(bytes);
      await compactSession(session, { name: "unbroken", bytes: bytes.length, sha256: "" }, { strategy: "transparent", countTokens });
    };
    let withoutCountsMs = Infinity;
    let withCountsMs = Infinity;
    for (let round = 0; round < runs; round++) {
      let started = performance.now();
      await compact(false, sessions[round]!);
      withoutCountsMs = Math.min(withoutCountsMs, performance.now() - started);
      started = performance.now();
      await compact(true, sessions[round]!);
      withCountsMs = Math.min(withCountsMs, performance.now() - started);
    }
    rows.push({ shape: name, mb: bytes.length / 1e6, withoutCountsMs, withCountsMs });
  }
  return rows;
}

export function unbrokenTable(rows: UnbrokenRow[]): string[] {
  const lines = ["| session | MB | compact ms | compact --token-counts ms | with counts ÷ without (target ≤ 3×) |", "|---|---|---|---|---|"];
  for (const r of rows)
    lines.push(
      `| three unbroken messages, ${r.shape} | ${r.mb.toFixed(1)} | ${r.withoutCountsMs.toFixed(0)} | ${r.withCountsMs.toFixed(0)} | ${(r.withCountsMs / r.withoutCountsMs).toFixed(2)}× |`,
    );
  return lines;
}

// `npm run bench:tokens` runs these two tables alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = 2;
  console.log(tokenShapeTable(await tokenShapeRows(runs)).join("\n"));
  console.log("");
  console.log(unbrokenTable(await unbrokenRows(runs, Number(process.env.MESSAGE_MB ?? 5.3))).join("\n"));
}
