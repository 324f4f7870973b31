import { isHumanMessage } from "./human-text.ts";
import type { Message } from "./model.ts";

/**
 * Small signals found in text that a reader needs to stay oriented: anchors
 * (URLs, commit SHAs, issue and PR numbers, error codes) and the line of an
 * output that says what went wrong. Used by the checkride's facts and by the
 * transparent strategy's marker labels.
 */
/**
 * The other anchors, each with substrings it cannot match without one of
 * (checked first: `includes` is far cheaper than running the pattern over a
 * long output).
 */
const ANCHOR_PATTERNS: { pattern: RegExp; needsOneOf?: string[] }[] = [
  { pattern: /https?:\/\/[^\s<>"'`)\]\\]+/g, needsOneOf: ["http"] },
  { pattern: /(?:^|[\s(])(#\d{2,6})\b/g, needsOneOf: ["#"] },
  { pattern: /\b(?:PR|pull request|issue)\s+#?(\d{2,6})\b/gi },
  // Error codes need a shape: a capitalised word (ERROR, EDITS) is not one.
  {
    pattern:
      /\b(?:E(?:NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|PIPE|MFILE|NOTEMPTY|BUSY|AI_AGAIN|HOSTUNREACH|NETUNREACH|INVAL|NOSPC|ROFS|XDEV)|TS\d{4}|E\d{4}|HTTP [45]\d\d)\b/g,
    needsOneOf: ["E", "TS", "HTTP"],
  },
];

/**
 * Anchors in order of kind (commit-like hex, URLs, #refs, PR/issue numbers,
 * error codes), each kind in text order. With `limit`, stops once that many
 * are found: the first `limit` are the same either way.
 */
export function anchorsIn(text: string, limit = Infinity): string[] {
  const found = new Set<string>();
  for (const run of hexRuns(text)) {
    if (/[a-f]/.test(run) && /[0-9]/.test(run)) found.add(run);
    if (found.size >= limit) return [...found];
  }
  for (const { pattern, needsOneOf } of ANCHOR_PATTERNS) {
    if (needsOneOf && !needsOneOf.some((needed) => text.includes(needed))) continue;
    for (const match of text.matchAll(pattern)) {
      let value = (match[1] ?? match[0]).replace(/[.,;:]+$/, "");
      if (/^\d+$/.test(value)) value = `#${value}`;
      found.add(value);
      if (found.size >= limit) return [...found];
    }
  }
  return [...found];
}

/** Character classes of ASCII: 1 = lowercase hex digit, 2 = other regex word character (as `\b` sees them). */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const hex = (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
  const word = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  ASCII_CLASS[c] = hex ? 1 : word ? 2 : 0;
}
const isHex = (c: number) => c < 128 && ASCII_CLASS[c] === 1;
const isWord = (c: number) => c < 128 && ASCII_CLASS[c] !== 0;

/**
 * Every match of /\b[0-9a-f]{7,40}\b/g, in order: maximal runs of 7 to 40
 * lowercase hex characters with no word character on either side. Found by
 * looking at the last character of each 7-character window first: a
 * non-hex character there rules out the whole window, so most text is
 * skipped 7 characters at a time instead of tried at every position (the
 * regex measured ~3× slower on long tool outputs; property-tested equal).
 */
export function hexRuns(text: string): string[] {
  const runs: string[] = [];
  const n = text.length;
  // Invariant: `start` is 0 or just after a non-hex character, so a run found at `start` begins there.
  let start = 0;
  while (start + 7 <= n) {
    let probe = start + 6;
    while (probe >= start && isHex(text.charCodeAt(probe))) probe--;
    if (probe >= start) {
      start = probe + 1;
      continue;
    }
    let end = start + 7;
    while (end < n && isHex(text.charCodeAt(end))) end++;
    const boundedBefore = start === 0 || !isWord(text.charCodeAt(start - 1));
    const boundedAfter = end === n || !isWord(text.charCodeAt(end));
    if (boundedBefore && boundedAfter && end - start <= 40) runs.push(text.slice(start, end));
    start = end + 1;
  }
  return runs;
}

/**
 * Most specific first: a named error with its message ("Error: …",
 * "TypeError: …"; a heading such as "⎯⎯ Unhandled Error ⎯⎯" only names one),
 * then a named error, then a word of failure, then a test runner's failure mark. (A word ending in Error or Exception is found as
 * `(?:Error|Exception)\b`: the same test as `\b\w*(Error|Exception)\b`,
 * measured ~10× faster on long outputs.)
 */
const ERROR_TIERS = [
  /(?:Error|Exception)(?:\[\w+\])?:\s/,
  /(?:Error|Exception)\b|panic|traceback|fatal/,
  /\b(error|fail(ed|ure)?|cannot|can't|not found|denied|refused|no module named)\b/i,
  /[✗●×]/,
];

/** The line of an output that best names the failure (or its first line: what a marker quotes of an output that names none). */
export function errorLineOf(output: string): string | undefined {
  return namedErrorLineOf(output) ?? outputLines(output)[0];
}

/** The line of an output that names the failure, or undefined when no line does (a fact quotes an error, never a banner). */
export function namedErrorLineOf(output: string): string | undefined {
  const lines = outputLines(output);
  for (const tier of ERROR_TIERS) {
    // A line is part of the output: when the whole output has no match, no line has one.
    if (!tier.test(output)) continue;
    const hit = lines.find((line) => tier.test(line));
    if (hit) return hit;
  }
  return undefined;
}

function outputLines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^(tests?:|test files)/i.test(line));
}

/**
 * A request the user typed: a message with human-written text (see
 * human-text.ts for what each harness injects).
 */
export function isRealUserMessage(message: Message): boolean {
  return isHumanMessage(message);
}
