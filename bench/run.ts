/**
 * `npm run bench`: reading and compaction throughput, each reported as a
 * ratio against a floor measured in the same run on the same bytes, so the
 * figures mean the same on a slow or a fast machine.
 *
 * floor(read)    = UTF-8 decode + JSON.parse of every line
 * floor(compact) = UTF-8 decode + JSON.parse of every line + one SHA-256 over the bytes
 * compact        = load + transparent compaction + serializing and encoding the
 *                  checkpoint with the CLI's writer (into /dev/null): everything
 *                  `npm run cli -- compact` does except reading and writing the disk
 *                  (the CLI reads the file in pieces into the same reader; here the
 *                  bytes are already in memory and loaded whole, as the floor reads them)
 *
 * whole process  = `npm run cli -- compact <file> --output /dev/null` as a child
 *                  process: Node's start, tsx, reading the file, everything above
 *                  (npm's own start, ~0.3 s, is left out)
 *
 * Both sides hash with what the CLI uses, Node's native SHA-256 (WebCrypto's
 * digest in Node 20 runs ~7× slower on this machine and would inflate the
 * floor). Each timed run starts after a full garbage collection, so one
 * run's garbage is not collected on the next one's clock.
 *
 * Usage: npm run bench [-- --mb 100] [-- --runs 3]
 * `npm run bench` runs Node with the young-generation size `npm run cli` uses
 * (--max-semi-space-size=64: a 100 MB session keeps hundreds of MB of new
 * objects, and copying them out of a 16 MB young generation is most of its GC;
 * alternating runs measured a small gain, see the README).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { checkpointPieces } from "../core/checkpoint-json.ts";
import { BufferedWriter } from "../core/cli/output.ts";
import { compactSession } from "../core/compact.ts";
import { fileSha256, sha256Hex } from "../core/hash.ts";
import { loadSession } from "../core/session.ts";
import { useNodeHasher } from "../core/cli/node-hash.ts";
import { generatePiSession } from "./generate.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const MB = flag("mb", 100);
// Measure what the CLI runs: it hashes the file and the payloads with Node's native SHA-256.
useNodeHasher();
const RUNS = flag("runs", 3);

function parseEveryLine(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  let count = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) {
      JSON.parse(text.slice(start, end));
      count++;
    }
    start = end + 1;
  }
  return count;
}

/** Node exposes gc() with --expose-gc (the bench script passes it). */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * The fastest of RUNS timings of each task. The tasks take turns (one run of
 * each, then the next round) so that a slow spell of this shared machine
 * lands on all of them rather than on one.
 */
async function bestOfInTurns<K extends string>(tasks: Record<K, () => unknown | Promise<unknown>>): Promise<Record<K, number>> {
  const fastest = {} as Record<K, number>;
  for (let round = 0; round < RUNS; round++) {
    for (const name of Object.keys(tasks) as K[]) {
      collectGarbage();
      const started = performance.now();
      await tasks[name]();
      fastest[name] = Math.min(fastest[name] ?? Infinity, performance.now() - started);
    }
  }
  return fastest;
}

interface Row {
  input: string;
  mb: number;
  floorReadMs: number;
  readMs: number;
  floorCompactMs: number;
  /** The same floor hashing with WebCrypto, for comparison with figures measured that way. */
  floorWebCryptoMs: number;
  compactMs: number;
  wholeProcessMs: number;
}

const ROOT = resolve(import.meta.dirname, "..");

/** The CLI as `npm run cli` starts it, minus npm. */
function compactInChildProcess(file: string): void {
  const result = spawnSync(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "core/cli.ts", "compact", file, "--output", "/dev/null"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  if (result.status !== 0) throw new Error(`the CLI failed on ${file}: ${result.stderr}`);
}

async function measure(input: string, bytes: Uint8Array, file: string): Promise<Row> {
  const fastest = await bestOfInTurns({
    wholeProcess: () => compactInChildProcess(file),
    floorRead: () => parseEveryLine(bytes),
    read: () => loadSession(bytes),
    floorCompact: async () => {
      parseEveryLine(bytes);
      await fileSha256(bytes);
    },
    floorWebCrypto: async () => {
      parseEveryLine(bytes);
      await sha256Hex(bytes);
    },
    compact: async () => {
      const session = loadSession(bytes);
      const checkpoint = await compactSession(session, { name: input, bytes: bytes.length, sha256: await fileSha256(bytes) }, { strategy: "transparent" });
      // The CLI's own writer, into /dev/null: serializing and encoding are measured, the disk is not.
      const devNull = openSync("/dev/null", "w");
      try {
        const writer = new BufferedWriter(devNull);
        for (const piece of checkpointPieces(checkpoint)) writer.write(piece);
        writer.flush();
      } finally {
        closeSync(devNull);
      }
    },
  });
  return {
    input,
    mb: bytes.length / 1e6,
    floorReadMs: fastest.floorRead,
    readMs: fastest.read,
    floorCompactMs: fastest.floorCompact,
    floorWebCryptoMs: fastest.floorWebCrypto,
    compactMs: fastest.compact,
    wholeProcessMs: fastest.wholeProcess,
  };
}

const fixture = resolve(import.meta.dirname, "../../shared/fixtures/pi/badlogic__pi-mono__before-compaction.jsonl");
const rows: Row[] = [];
rows.push(await measure("largest fixture (Pi, 2.4 MB)", readFileSync(fixture), fixture));
const generated = new TextEncoder().encode(generatePiSession(MB * 1e6));
const generatedFile = join(mkdtempSync(join(tmpdir(), "si-bench-")), "generated.jsonl");
writeFileSync(generatedFile, generated);
try {
  rows.push(await measure(`generated Pi session (${MB} MB)`, generated, generatedFile));
} finally {
  rmSync(dirname(generatedFile), { recursive: true, force: true });
}

const mbps = (mb: number, ms: number) => (mb / (ms / 1000)).toFixed(1);
const v8Flags = process.execArgv.filter((arg) => arg.startsWith("--max-semi-space-size") || arg.startsWith("--min-semi-space-size"));
console.log(`best of ${RUNS} rounds, Node ${process.version}${v8Flags.length ? ` ${v8Flags.join(" ")}` : ""}\n`);
console.log("| input | read MB/s | floor MB/s | read ÷ floor | compact ms | floor ms | compact ÷ floor | whole process ms | whole ÷ floor |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.input} | ${mbps(r.mb, r.readMs)} | ${mbps(r.mb, r.floorReadMs)} | ${(r.readMs / r.floorReadMs).toFixed(2)}× | ${r.compactMs.toFixed(0)} | ${r.floorCompactMs.toFixed(0)} | ${(r.compactMs / r.floorCompactMs).toFixed(2)}× | ${r.wholeProcessMs.toFixed(0)} | ${(r.wholeProcessMs / r.floorCompactMs).toFixed(2)}× |`,
  );
}
console.log(
  `\nThe compact floor hashes with Node's native SHA-256, as the CLI does. With WebCrypto's digest instead it is ${rows
    .map((r) => `${r.floorWebCryptoMs.toFixed(0)} ms (${r.input})`)
    .join(", ")}.`,
);
