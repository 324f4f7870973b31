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
 * whole process  = `npm run cli -- compact <file> --output /dev/null --no-token-counts` as a child
 *                  process: Node's start, the CLI's start from its bundle, reading
 *                  the file, everything above (npm's own start is left out)
 *
 * contract minimum = the floor plus only what the checkpoint contract makes every
 *                  implementation do on top of it, done the cheapest way, on this
 *                  run's real checkpoint: each archived payload serialized once,
 *                  encoded into the output and hashed from there, and the active
 *                  view serialized and encoded. No session, tree, labels or stats.
 *                  A streaming compactor with no cost of its own would take this
 *                  long; it says how close to the floor any compact can come.
 * whole-process minimum = contract minimum + a bare `node -e ""` process start +
 *                  reading the file from the page cache in the CLI's 8 MB pieces.
 *
 * report         = everything `npm run cli -- report <file> --output R.html` does except reading
 *                  and writing the disk: load, the file's hash, the secret scan, every
 *                  strategy compacted, counted and graded, the recorded-compaction audit,
 *                  and the HTML written a piece at a time with the CLI's writer (into
 *                  /dev/null). Reported as a ratio to `compact`, to `compact` with the
 *                  token stats the CLI's `compact` prints by default (the report counts
 *                  tokens too), and to the floor (issue #13: "a 100 MB report takes no
 *                  more than a few times its compaction").
 *
 * tokenize view  = counting o200k tokens of the model's view (core/tokens.ts) with a
 *                  cold cache (a fresh load per run): what the app's worker counts
 *                  when it shows the default (transparent) view, within its budget
 *                  (core/composition.ts LOAD_COUNT_BUDGET_MS); the active view's exact
 *                  count; the whole branch's (on demand, never at load; timed once).
 *                  Each reported as a ratio to `read` (loading the session).
 *
 * Both sides hash with what the CLI uses, Node's native SHA-256 (WebCrypto's
 * digest in Node 20 runs ~7× slower on this machine and would inflate the
 * floor). Each timed run starts after a full garbage collection, so one
 * run's garbage is not collected on the next one's clock.
 *
 * Usage: npm run bench [-- --mb 100] [-- --runs 3] [-- --shape-mb 4] [-- --unbroken-mb 5.3]
 * Node runs with its default heap settings, as `npm run cli` does.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Checkpoint } from "../core/checkpoint.ts";
import { checkpointPieces } from "../core/checkpoint-json.ts";
import { BufferedWriter } from "../core/cli/output.ts";
import { scanMessages } from "../core/redact.ts";
import { htmlPieces } from "../core/report/html.ts";
import { buildReport } from "../core/report/model.ts";
import { STRATEGIES } from "../core/strategies/index.ts";
import { compactSession } from "../core/compact.ts";
import { LOAD_COUNT_BUDGET_MS, composition } from "../core/composition.ts";
import { TOKENIZER_LABEL, contextTokens, loadTokenizer } from "../core/tokens.ts";
import { fileSha256, sha256Hex } from "../core/hash.ts";
import { keepSerializedViews } from "../core/serialized.ts";
import { loadSession } from "../core/session.ts";
import { useNodeHasher } from "../core/cli/node-hash.ts";
import { generatePiSession } from "./generate.ts";
import { readerTable } from "./readers.ts";
import { tokenShapeRows, tokenShapeTable, unbrokenRows, unbrokenTable } from "./token-shapes.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const MB = flag("mb", 100);
// Measure what the CLI runs: it hashes the file and the payloads with Node's native SHA-256,
// and its writer reuses the active view's JSON made for the stats.
useNodeHasher();
keepSerializedViews(true);
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
  /** The worker's count at load (within its budget), the active view's exact count (cold cache), the whole branch's (once). */
  tokenizeAtLoadMs: number;
  estimatedAtLoad: number;
  tokenizeActiveMs: number;
  tokenizeBranchMs: number;
  activeTokens: number;
  branchTokens: number;
  mb: number;
  floorReadMs: number;
  readMs: number;
  floorCompactMs: number;
  /** The same floor hashing with WebCrypto, for comparison with figures measured that way. */
  floorWebCryptoMs: number;
  compactMs: number;
  /** `compact --token-counts`: with the o200k token stats of both views. */
  compactCountedMs: number;
  reportMs: number;
  wholeProcessMs: number;
  contractMinimumMs: number;
  wholeProcessMinimumMs: number;
}

const ROOT = resolve(import.meta.dirname, "..");

/** The CLI as `npm run cli` starts it, minus npm. */
function compactInChildProcess(file: string): void {
  // Token counts are left out here and timed on their own below (the tokens table), so these figures stay comparable.
  const result = spawnSync(process.execPath, ["bin/session-inspector.mjs", "compact", file, "--output", "/dev/null", "--no-token-counts"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (result.status !== 0) throw new Error(`the CLI failed on ${file}: ${result.stderr}`);
}

/** Pieces into /dev/null with the CLI's own writer: serializing and encoding are measured, the disk is not. */
function writeToDevNull(pieces: Iterable<string>): void {
  const devNull = openSync("/dev/null", "w");
  try {
    const writer = new BufferedWriter(devNull);
    for (const piece of pieces) writer.write(piece);
    writer.flush();
  } finally {
    closeSync(devNull);
  }
}

/** What `report FILE --output R.html` does between reading and writing the disk (core/cli/commands.ts runReport, every strategy, all findings masked). */
async function reportInProcess(input: string, bytes: Uint8Array): Promise<void> {
  // The CLI keeps serialized views only for `compact`, which writes one as soon as it is made.
  keepSerializedViews(false);
  try {
    const session = loadSession(bytes);
    const file = { name: input, bytes: bytes.length, sha256: await fileSha256(bytes) };
    const leafId = session.defaultLeafId;
    const findings = scanMessages(session.branch(leafId));
    const report = await buildReport(session, file, { strategies: STRATEGIES.map((s) => s.name), leafId, redact: findings });
    writeToDevNull(htmlPieces(report));
  } finally {
    keepSerializedViews(true);
  }
}

/** The least any process costs: Node starting and exiting. */
function bareNodeProcess(): void {
  const result = spawnSync(process.execPath, ["-e", ""], { stdio: "ignore" });
  if (result.status !== 0) throw new Error('node -e "" failed');
}

/** Reading a file as the CLI does, in 8 MB pieces into one reused buffer. */
function readInPieces(file: string): number {
  const fd = openSync(file, "r");
  try {
    const piece = Buffer.allocUnsafe(8 * 1024 * 1024);
    let total = 0;
    for (let read = readSync(fd, piece, 0, piece.length, null); read > 0; read = readSync(fd, piece, 0, piece.length, null)) total += read;
    return total;
  } finally {
    closeSync(fd);
  }
}

/**
 * What the checkpoint contract adds to the floor, done the cheapest way: each
 * payload serialized once, encoded straight into the output buffer and hashed
 * there (a real compactor must also keep it or serialize it again), and the
 * active view serialized and encoded. Returns the payloads' digests, which
 * must equal the checkpoint's: proof this is the same work, not less.
 */
function contractWork(checkpoint: Checkpoint, hash: (bytes: Uint8Array) => string): string[] {
  const output = Buffer.allocUnsafe(16 * 1024 * 1024);
  const devNull = openSync("/dev/null", "w");
  const digests: string[] = [];
  try {
    let used = 0;
    const flush = () => {
      writeSync(devNull, output, 0, used);
      used = 0;
    };
    const active = JSON.stringify(checkpoint.active);
    for (let from = 0; from < active.length; from += 1 << 20) {
      flush();
      used = output.write(active.slice(from, from + (1 << 20)), 0, "utf8");
    }
    for (const entry of checkpoint.archive) {
      const json = JSON.stringify(entry.payload);
      if (json.length * 3 > output.length - used) flush();
      const start = used;
      used += json.length * 3 > output.length ? 0 : output.write(json, used, "utf8");
      digests.push(hash(used > start ? output.subarray(start, used) : Buffer.from(json, "utf8")));
    }
    flush();
  } finally {
    closeSync(devNull);
  }
  return digests;
}

async function measure(input: string, bytes: Uint8Array, file: string): Promise<Row> {
  const checkpoint = await compactSession(loadSession(bytes), { name: input, bytes: bytes.length, sha256: await fileSha256(bytes) }, { strategy: "transparent" });
  const nativeHash = (payload: Uint8Array) => createHash("sha256").update(payload).digest("hex");
  const minimumDigests = contractWork(checkpoint, nativeHash);
  if (minimumDigests.some((digest, i) => digest !== checkpoint.archive[i]!.sha256)) throw new Error("the contract minimum hashed something other than the checkpoint's payloads");
  const fastest = await bestOfInTurns({
    wholeProcess: () => compactInChildProcess(file),
    floorRead: () => parseEveryLine(bytes),
    read: () => loadSession(bytes),
    floorCompact: async () => {
      parseEveryLine(bytes);
      await fileSha256(bytes);
    },
    contractMinimum: async () => {
      parseEveryLine(bytes);
      await fileSha256(bytes);
      contractWork(checkpoint, nativeHash);
    },
    bareNode: () => bareNodeProcess(),
    readFile: () => readInPieces(file),
    floorWebCrypto: async () => {
      parseEveryLine(bytes);
      await sha256Hex(bytes);
    },
    compact: async () => {
      const session = loadSession(bytes);
      const checkpoint = await compactSession(session, { name: input, bytes: bytes.length, sha256: await fileSha256(bytes) }, { strategy: "transparent" });
      writeToDevNull(checkpointPieces(checkpoint));
    },
    // `compact --token-counts`: with the o200k token stats of both views (a fresh load, so no count is cached).
    compactCounted: async () => {
      const session = loadSession(bytes);
      const checkpoint = await compactSession(session, { name: input, bytes: bytes.length, sha256: await fileSha256(bytes) }, { strategy: "transparent", countTokens: true });
      writeToDevNull(checkpointPieces(checkpoint));
    },
    report: () => reportInProcess(input, bytes),
  });
  const tokens = await measureTokenizing(bytes);
  return {
    input,
    ...tokens,
    mb: bytes.length / 1e6,
    floorReadMs: fastest.floorRead,
    readMs: fastest.read,
    floorCompactMs: fastest.floorCompact,
    floorWebCryptoMs: fastest.floorWebCrypto,
    compactMs: fastest.compact,
    compactCountedMs: fastest.compactCounted,
    reportMs: fastest.report,
    wholeProcessMs: fastest.wholeProcess,
    contractMinimumMs: fastest.contractMinimum,
    wholeProcessMinimumMs: fastest.contractMinimum + fastest.bareNode + fastest.readFile,
  };
}

/**
 * The model-view token counts on a fresh load each run, so the per-message
 * cache starts cold: what the worker spends at load (the composition within
 * its budget), the whole active view counted exactly, and the whole branch.
 */
async function measureTokenizing(
  bytes: Uint8Array,
): Promise<Pick<Row, "tokenizeAtLoadMs" | "estimatedAtLoad" | "tokenizeActiveMs" | "tokenizeBranchMs" | "activeTokens" | "branchTokens">> {
  const best = { atLoad: Infinity, active: Infinity };
  let estimatedAtLoad = 0;
  let activeTokens = 0;
  // Imported once, before timing: the app's worker starts loading it with its first view.
  await loadTokenizer();
  let session = loadSession(bytes);
  for (let round = 0; round < RUNS; round++) {
    if (round > 0) session = loadSession(bytes);
    const checkpoint = await compactSession(session, { name: "bench", bytes: bytes.length, sha256: "" }, { strategy: "transparent" });
    collectGarbage();
    let started = performance.now();
    const parts = composition(checkpoint.active, session.format, { budgetMs: LOAD_COUNT_BUDGET_MS });
    best.atLoad = Math.min(best.atLoad, performance.now() - started);
    estimatedAtLoad = parts.reduce((sum, part) => sum + part.estimated, 0);
    // The rest of the active view, then the whole of it again from the cache: the exact count's full cost.
    started = performance.now();
    activeTokens = contextTokens(checkpoint.active, session.format).total;
    best.active = Math.min(best.active, best.atLoad + performance.now() - started);
  }
  collectGarbage();
  const started = performance.now();
  const branchTokens = contextTokens(session.branch(null), session.format).total;
  return { tokenizeAtLoadMs: best.atLoad, estimatedAtLoad, tokenizeActiveMs: best.active, activeTokens, tokenizeBranchMs: performance.now() - started, branchTokens };
}

const fixture = resolve(process.env.SESSION_FIXTURES ?? resolve(import.meta.dirname, "../../shared/fixtures"), "pi/badlogic__pi-mono__before-compaction.jsonl");
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
const v8Flags = process.execArgv.filter((arg) => /^--(max|min)-semi-space-size/.test(arg));
console.log(`best of ${RUNS} rounds, Node ${process.version}${v8Flags.length ? ` ${v8Flags.join(" ")}` : ""}\n`);
const ratio = (ms: number, floor: number) => `${(ms / floor).toFixed(2)}×`;
console.log(
  "| input | read MB/s | floor MB/s | read ÷ floor | compact ms | floor ms | compact ÷ floor | contract minimum ÷ floor | whole process ms | whole ÷ floor | whole-process minimum ÷ floor |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const floor = r.floorCompactMs;
  console.log(
    `| ${r.input} | ${mbps(r.mb, r.readMs)} | ${mbps(r.mb, r.floorReadMs)} | ${ratio(r.readMs, r.floorReadMs)} | ${r.compactMs.toFixed(0)} | ${floor.toFixed(0)} | ${ratio(r.compactMs, floor)} | ${ratio(r.contractMinimumMs, floor)} | ${r.wholeProcessMs.toFixed(0)} | ${ratio(r.wholeProcessMs, floor)} | ${ratio(r.wholeProcessMinimumMs, floor)} |`,
  );
}
console.log(`\nThe HTML report (every strategy, the checkride, the recorded-compaction audit, the secret scan; into /dev/null) against the compaction above and the floor:\n`);
console.log(
  "| input | report ms | compact ms (the CLI's default) | report ÷ compact | compact --token-counts ms | report ÷ compact with token stats | floor ms | report ÷ floor |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| report of ${r.input} | ${r.reportMs.toFixed(0)} | ${r.compactMs.toFixed(0)} | ${ratio(r.reportMs, r.compactMs)} | ${r.compactCountedMs.toFixed(0)} | ${ratio(r.reportMs, r.compactCountedMs)} | ${r.floorCompactMs.toFixed(0)} | ${ratio(r.reportMs, r.floorCompactMs)} |`,
  );
}
console.log(
  `\nModel-view tokens (${TOKENIZER_LABEL}) with a cold cache: what the app's worker counts when it shows a view (within ${LOAD_COUNT_BUDGET_MS} ms, the rest estimated and counted later), the active view's exact count, and the whole branch's (on demand):\n`,
);
console.log(
  "| input | load ms | tokenize at load ms | tokenize ÷ load | tokens estimated at load | exact active view ms | exact active ÷ load | active view tokens | whole branch ms | branch ÷ load | branch tokens |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| view of ${r.input} | ${r.readMs.toFixed(0)} | ${r.tokenizeAtLoadMs.toFixed(0)} | ${ratio(r.tokenizeAtLoadMs, r.readMs)} | ${r.estimatedAtLoad} | ${r.tokenizeActiveMs.toFixed(0)} | ${ratio(r.tokenizeActiveMs, r.readMs)} | ${r.activeTokens} | ${r.tokenizeBranchMs.toFixed(0)} | ${ratio(r.tokenizeBranchMs, r.readMs)} | ${r.branchTokens} |`,
  );
}
console.log(
  `\nThe compact floor hashes with Node's native SHA-256, as the CLI does. With WebCrypto's digest instead it is ${rows
    .map((r) => `${r.floorWebCryptoMs.toFixed(0)} ms (${r.input})`)
    .join(", ")}.`,
);
console.log(`\n${readerTable(RUNS).join("\n")}`);
console.log(`\nThe o200k count on text that breaks a naive BPE (bench/token-shapes.ts; each run on text of its own, so no run reuses the tokenizer's merge cache):\n`);
console.log(tokenShapeTable(await tokenShapeRows(RUNS, flag("shape-mb", 4))).join("\n"));
const UNBROKEN_MB = flag("unbroken-mb", 5.3);
console.log(`\nA session of three user messages of about ${UNBROKEN_MB} MB of unbroken text each, compacted in process with and without the token stats:\n`);
console.log(unbrokenTable(await unbrokenRows(RUNS, UNBROKEN_MB)).join("\n"));
