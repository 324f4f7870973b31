/**
 * `npm run bench:facts`: the answer key's extraction (`extractFacts`, what
 * every checkride, audit and library row reads) on the shapes that break
 * naive scanners: each shape of bench/token-shapes.ts placed where the key
 * reads most (a user's message: rules, anchors, intent; a failed command's
 * output: the error line and error codes; the command itself: the last
 * verification and shell writes), at 1 MB and at 4 MB. Linear time keeps the
 * time per MB the same (the per-MB ratio near 1×; quadratic would be 4×).
 * Beside it, a floor measured in the same run on the same text: UTF-8
 * encoding it and one scan with a word regex, the least any text extractor
 * does. Then millions of tiny records: sessions of 100,000 and 400,000 short
 * messages, per message. A benchmark, not a test: it prints and asserts
 * nothing.
 */
import { extractFacts } from "../core/checkride/facts.ts";
import type { Message } from "../core/model.ts";
import { SHAPES, bestMs, seeded, textOfShape } from "./token-shapes.ts";

type Place = (text: string) => Message[];

/** Where the text goes: what of the key reads it there. */
const PLACES: Record<string, Place> = {
  "user message": (text) => [{ id: "u1", role: "user", meta: {}, blocks: [{ type: "text", text }] }],
  "failed command's output": (text) => [
    { id: "a1", role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } }] },
    { id: "r1", role: "toolResult", meta: { toolCallId: "c1", isError: true, exitCode: 1 }, blocks: [{ type: "text", text }] },
  ],
  "the command itself": (text) => [
    { id: "a1", role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: `npm test -- ${text}` } }] },
    { id: "r1", role: "toolResult", meta: { toolCallId: "c1", exitCode: 0 }, blocks: [{ type: "text", text: "Tests: 3 passed" }] },
  ],
};

const WORD = /\S+/g;
function floor(text: string): number {
  let pieces = new TextEncoder().encode(text).length;
  for (const _ of text.matchAll(WORD)) pieces++;
  return pieces;
}

const runs = Number(process.argv.find((arg) => arg.startsWith("--runs="))?.slice(7) ?? 3);
const largeMb = Number(process.argv.find((arg) => arg.startsWith("--mb="))?.slice(5) ?? 4);
const mbOf = (text: string) => new TextEncoder().encode(text).length / 1e6;

console.log(`The answer key's extraction on text that breaks naive scanners (fastest of ${runs}, each run on text of its own):\n`);
console.log(`| shape | placed in | ms per MB at ${largeMb / 4} MB | ms per MB at ${largeMb} MB | 4× the text: per-MB ratio (linear: ~1×) | floor ms per MB | extract ÷ floor |`);
console.log("|---|---|---|---|---|---|---|");
for (const [name, shape] of Object.entries(SHAPES)) {
  const seeds = Array.from({ length: runs }, (_, i) => 2000 + i);
  const small = seeds.map((seed) => textOfShape(shape, largeMb / 4, seed));
  const large = seeds.map((seed) => textOfShape(shape, largeMb, seed + 500));
  const floorMs = bestMs(large, floor) / mbOf(large[0]!);
  for (const [where, place] of Object.entries(PLACES)) {
    const extract = (text: string) => extractFacts(place(text), { cwd: "/home/dev/shapes", format: "pi" });
    extract(small[0]!.slice(0, 10_000)); // warm the code paths of this place
    const at1 = bestMs(small, extract) / mbOf(small[0]!);
    const at4 = bestMs(large, extract) / mbOf(large[0]!);
    console.log(`| ${name} | ${where} | ${at1.toFixed(0)} | ${at4.toFixed(0)} | ${(at4 / at1).toFixed(2)}× | ${floorMs.toFixed(1)} | ${(at4 / floorMs).toFixed(1)}× |`);
  }
}

/** `count` tiny records: a user line, a call, its result, a reply, over and over. */
function tinySession(count: number, random: () => number): Message[] {
  const out: Message[] = [];
  for (let i = 0; out.length < count; i++) {
    out.push({ id: `u${i}`, role: "user", meta: {}, blocks: [{ type: "text", text: `go ${random() % 100}` }] });
    out.push({ id: `a${i}`, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: `ls ${i}` } }] });
    out.push({ id: `r${i}`, role: "toolResult", meta: { toolCallId: `c${i}`, exitCode: 0 }, blocks: [{ type: "text", text: "ok" }] });
    out.push({ id: `b${i}`, role: "assistant", meta: {}, blocks: [{ type: "text", text: "done" }] });
  }
  return out;
}

console.log(`\nMillions of tiny records: a session of short messages (a user line, a command, its result, a reply, again and again):\n`);
console.log("| messages | ms | µs per message |");
console.log("|---|---|---|");
for (const count of [100_000, 400_000]) {
  const sessions = Array.from({ length: runs }, (_, i) => tinySession(count, seeded(3000 + i)));
  let fastest = Infinity;
  for (const branch of sessions) {
    const started = performance.now();
    extractFacts(branch, { cwd: "/home/dev/tiny", format: "pi" });
    fastest = Math.min(fastest, performance.now() - started);
  }
  console.log(`| ${count.toLocaleString("en-US")} | ${fastest.toFixed(0)} | ${((fastest * 1000) / count).toFixed(2)} |`);
}
