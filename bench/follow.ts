/**
 * `npm run bench:follow [MB]`: following a session as it grows (issue #29).
 * A generated Pi session and a generated Claude Code transcript of MB
 * megabytes each (default 100) are followed, then grow by 1 MB; the row is the cost of taking in that 1 MB (decode, parse
 * the new lines, rebuild the session from the records already parsed) as a
 * ratio to reading a 1 MB session alone (loadSession), both measured here,
 * the fastest of 3. A benchmark, not a test: it prints and asserts nothing.
 */
import { FollowedFile } from "../core/follow.ts";
import { loadSession } from "../core/session.ts";
import { claudeSessionLines, piSessionLines } from "./generate.ts";

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
