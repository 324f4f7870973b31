/**
 * `npm run bench:library:growth [MB]`: re-indexing one grown session (issue
 * #29, "a grown file re-reads only its tail"). A generated Pi session and a
 * generated Claude Code transcript of MB megabytes each (default 100) are
 * indexed as the library indexes them (core/library/index-session.ts), then
 * grow by 1 MB of turns; the grown file is indexed again from the first
 * index's rows, once read from where that read ended (the resume point, the
 * library's default) and once read whole with the last audit's compaction
 * rows (what it did before), against indexing a 1 MB session alone, all
 * measured here, the median of 7. A benchmark, not a test: it prints and
 * asserts nothing.
 */
import type { SessionUnit } from "../core/library/discover.ts";
import { indexSession, reusableAudits } from "../core/library/index-session.ts";
import type { IndexedSession } from "../core/library/rows.ts";
import { claudeSessionLines, piSessionLines } from "./generate.ts";

const MB = 1024 * 1024;
const totalMb = Number(process.argv[2] ?? 100);
const encoder = new TextEncoder();

function unitOf(bytes: Uint8Array): SessionUnit {
  return { path: "s.jsonl", agent: "unknown", project: null, bytes: bytes.length, mtimeMs: 0, files: [{ path: "s.jsonl", role: "session", bytes: bytes.length, mtimeMs: 0 }] };
}

/** The median of 7 runs, each after a full collection (the garbage of the 100 MB reads before is not this run's cost; npm run passes --expose-gc). */
async function timed(run: () => Promise<IndexedSession>): Promise<{ ms: number; rows: IndexedSession }> {
  const times: number[] = [];
  let rows: IndexedSession | undefined;
  for (let round = 0; round < 7; round++) {
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    rows = await run();
    times.push(performance.now() - started);
  }
  return { ms: times.sort((a, b) => a - b)[3]!, rows: rows! };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(
  `| format | session | grows by | first index | grown, read from where it ended | grown, read whole (last audit's rows taken) | a 1 MB session alone | from the end ÷ alone |`,
);
console.log(`|---|---|---|---|---|---|---|---|`);
for (const [format, linesOf] of [
  ["Pi", piSessionLines],
  ["Claude Code", claudeSessionLines],
] as const) {
  const lines = [...linesOf((totalMb + 1) * MB)];
  let size = 0;
  let cut = 0;
  while (cut < lines.length && size < totalMb * MB) size += lines[cut++]!.length + 1;
  const before = encoder.encode(lines.slice(0, cut).join("\n") + "\n");
  const grown = encoder.encode(lines.join("\n") + "\n");
  const alone = encoder.encode([...linesOf(grown.length - before.length)].join("\n") + "\n");
  const read = (bytes: Uint8Array) => async () => bytes;
  const range = (bytes: Uint8Array) => async (_path: string, start: number, end: number) => bytes.subarray(start, end);

  const first = await timed(async () => (await indexSession(unitOf(before), read(before))) as IndexedSession);
  const fromEnd = await timed(async () => (await indexSession(unitOf(grown), read(grown), { previous: first.rows, readRange: range(grown) })) as IndexedSession);
  const whole = await timed(async () => (await indexSession(unitOf(grown), read(grown), { reuse: reusableAudits(first.rows) })) as IndexedSession);
  const single = await timed(async () => (await indexSession(unitOf(alone), read(alone))) as IndexedSession);
  const how = fromEnd.rows.tail ? "" : ` (read whole: ${fromEnd.rows.readWhole})`;
  console.log(
    `| ${format} | ${(before.length / MB).toFixed(0)} MB | ${((grown.length - before.length) / MB).toFixed(2)} MB | ${ms(first.ms)} | ${ms(fromEnd.ms)}${how} | ${ms(whole.ms)} | ${ms(single.ms)} | ${(fromEnd.ms / single.ms).toFixed(1)}× |`,
  );
}
