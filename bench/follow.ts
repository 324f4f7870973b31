/**
 * `npm run bench:follow [MB]`: following a session as it grows (issue #29).
 * A generated Pi session and a generated Claude Code transcript of MB
 * megabytes each (default 100) are followed, then grow by 1 MB; the row is the cost of taking in that 1 MB (decode, parse
 * the new lines, rebuild the session from the records already parsed) as a
 * ratio to reading a 1 MB session alone (loadSession), both measured here,
 * the fastest of 3. A second table is the app's look (src/worker/engine.ts):
 * the session opened, followed, grown by 1 MB three times, each look followed
 * by the exact token count the page asks for, against opening that 1 MB
 * alone and counting it the same way. A benchmark, not a test: it prints and
 * asserts nothing.
 */
import { FollowedFile } from "../core/follow.ts";
import { loadSession } from "../core/session.ts";
import { claudeSessionLines, piSessionLines } from "./generate.ts";
import { SessionEngine, type TaskContext } from "../src/worker/engine.ts";
import { exactTokens } from "../src/worker/services/tokens.ts";
import type { ReadableHandle } from "../src/worker/services/follow.ts";

const MB = 1024 * 1024;
const totalMb = Number(process.argv[2] ?? 100);
const encoder = new TextEncoder();

/** The first `mb` megabytes of lines of one growing session, and the next megabyte. */
function growingSession(linesOf: (bytes: number) => Iterable<string>, mb: number): { before: Uint8Array; growth: Uint8Array } {
  const lines = [...linesOf((mb + 1) * MB)];
  let size = 0;
  let cut = 0;
  while (cut < lines.length && size < mb * MB) size += lines[cut++]!.length + 1;
  return { before: encoder.encode(lines.slice(0, cut).join("\n") + "\n"), growth: encoder.encode(lines.slice(cut).join("\n") + "\n") };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`| format | followed session | grows by | first read | taking in the growth | reading the growth alone | growth ÷ alone |`);
console.log(`|---|---|---|---|---|---|---|`);

for (const [format, linesOf] of [
  ["Pi", piSessionLines],
  ["Claude Code", claudeSessionLines],
] as const) {
  const { before, growth } = growingSession(linesOf, totalMb);
  const alone = encoder.encode([...linesOf(growth.length)].join("\n") + "\n");

  let readAlone = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    loadSession(alone).branch(null);
    readAlone = Math.min(readAlone, performance.now() - started);
  }

  let firstRead = Infinity;
  let takeGrowth = Infinity;
  for (let run = 0; run < 3; run++) {
    const follower = new FollowedFile();
    let started = performance.now();
    follower.append(before);
    follower.session().branch(null);
    firstRead = Math.min(firstRead, performance.now() - started);
    // Only the growth is the follower's cost: the first read is what opening the file costs anyway.
    started = performance.now();
    follower.append(growth);
    follower.session().branch(null);
    takeGrowth = Math.min(takeGrowth, performance.now() - started);
  }
  console.log(
    `| ${format} | ${(before.length / MB).toFixed(0)} MB | ${(growth.length / MB).toFixed(2)} MB | ${ms(firstRead)} | ${ms(takeGrowth)} | ${ms(readAlone)} | ${(takeGrowth / readAlone).toFixed(1)}× |`,
  );
}

/** A file handle whose file is whichever one the bench says it is now (the growths made before the clock starts). */
class SwappedFile implements ReadableHandle {
  constructor(public file: File) {}
  async getFile(): Promise<File> {
    return this.file;
  }
}

const task: TaskContext = { progress: () => {}, checkCancelled: () => {} };
const transparent = { strategy: "transparent", options: {}, leafId: null } as const;

/** What a look costs the worker in the app: the follow request, then the exact count of the view it made. */
async function appLook(engine: SessionEngine, viewId: number): Promise<{ ms: number; viewId: number }> {
  const started = performance.now();
  const result = await engine.follow(viewId, { ...transparent, auditIndex: null }, task);
  const next = result.change === "unchanged" ? viewId : result.view.id;
  await exactTokens(engine.screen(next));
  return { ms: performance.now() - started, viewId: next };
}

async function openAndCount(file: File, handle?: ReadableHandle): Promise<{ engine: SessionEngine; viewId: number; ms: number }> {
  const engine = new SessionEngine();
  const started = performance.now();
  const loaded = await engine.load({ kind: "file", file, handle: handle as FileSystemFileHandle | undefined }, transparent, task);
  await exactTokens(engine.screen(loaded.view.id));
  return { engine, viewId: loaded.view.id, ms: performance.now() - started };
}

console.log("");
console.log(`In the app's worker: each look is the follow request and the exact count the page then asks for.`);
console.log("");
console.log(`| format | followed session | grows by | open and count | first look | looks at a growth (3) | opening the growth alone | growth ÷ alone |`);
console.log(`|---|---|---|---|---|---|---|---|`);
for (const [format, linesOf] of [
  ["Pi", piSessionLines],
  ["Claude Code", claudeSessionLines],
] as const) {
  const lines = [...linesOf((totalMb + 3) * MB)];
  const cuts: number[] = [];
  let size = 0;
  for (let cut = 0, mb = totalMb; cut <= lines.length && mb <= totalMb + 3; cut++) {
    if (size >= mb * MB || cut === lines.length) {
      cuts.push(cut);
      mb++;
    }
    if (cut < lines.length) size += lines[cut]!.length + 1;
  }
  const files = cuts.map((cut) => new File([lines.slice(0, cut).join("\n") + "\n"], "followed.jsonl", { lastModified: cut }));
  const growthBytes = files[1]!.size - files[0]!.size;
  const alone = new File([[...linesOf(growthBytes)].join("\n") + "\n"], "alone.jsonl");

  let openAlone = Infinity;
  for (let run = 0; run < 3; run++) openAlone = Math.min(openAlone, (await openAndCount(alone)).ms);

  const handle = new SwappedFile(files[0]!);
  const opened = await openAndCount(files[0]!, handle);
  // The first look reads the whole file once (what Follow costs when it starts).
  let look = await appLook(opened.engine, opened.viewId);
  const firstLook = look.ms;
  const growths: number[] = [];
  for (const file of files.slice(1, 4)) {
    handle.file = file;
    look = await appLook(opened.engine, look.viewId);
    growths.push(look.ms);
  }
  const fastest = Math.min(...growths);
  console.log(
    `| ${format} | ${(files[0]!.size / MB).toFixed(0)} MB | ${(growthBytes / MB).toFixed(2)} MB | ${ms(opened.ms)} | ${ms(firstLook)} | ${growths.map(ms).join(", ")} | ${ms(openAlone)} | ${(fastest / openAlone).toFixed(1)}× |`,
  );
}
