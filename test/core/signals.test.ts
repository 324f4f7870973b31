/**
 * Anchors: the hand-written hex-run scan against the regex it replaces, and
 * anchorsIn against the plain one-pattern-after-another definition, on
 * generated text dense in the characters that matter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anchorsIn, errorLineOf, hexRuns } from "../../core/signals.ts";

/** The definition: each pattern over the whole text, kinds in order, duplicates dropped. */
function referenceAnchors(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\b[0-9a-f]{7,40}\b/g)) {
    if (/[a-f]/.test(match[0]) && /[0-9]/.test(match[0])) found.add(match[0]);
  }
  const patterns = [
    /https?:\/\/[^\s<>"'`)\]\\]+/g,
    /(?:^|[\s(])(#\d{2,6})\b/g,
    /\b(?:PR|pull request|issue)\s+#?(\d{2,6})\b/gi,
    /\b(?:E(?:NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|PIPE|MFILE|NOTEMPTY|BUSY|AI_AGAIN|HOSTUNREACH|NETUNREACH|INVAL|NOSPC|ROFS|XDEV)|TS\d{4}|E\d{4}|HTTP [45]\d\d)\b/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      let value = (match[1] ?? match[0]).replace(/[.,;:]+$/, "");
      if (/^\d+$/.test(value)) value = `#${value}`;
      found.add(value);
    }
  }
  return [...found];
}

// Hex digits and letters, other word characters, separators, non-ASCII, and whole tokens that make anchors.
const pieceArb = fc.oneof(
  fc.constantFrom(..."0123456789abcdef".split("")),
  fc.constantFrom("g", "G", "A", "F", "_", "z", "9"),
  fc.constantFrom(" ", "\n", "-", ".", "/", "(", ":", "#", "é", "東", "😀"),
  fc.constantFrom("deadbeef1", "a1b2c3d", "0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef012345678"),
  fc.constantFrom("https://github.com/o/r/pull/12", "PR #345", "issue 77", "ENOENT", "TS2345", "HTTP 503", "#42", "ERROR", "EDITS"),
);
const textArb = fc.array(pieceArb, { maxLength: 120 }).map((pieces) => pieces.join(""));

describe("hexRuns", () => {
  it("finds exactly the matches of /\\b[0-9a-f]{7,40}\\b/g", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(hexRuns(text)).toEqual([...text.matchAll(/\b[0-9a-f]{7,40}\b/g)].map((m) => m[0]));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles runs at both ends, exactly 7 and 40 long, and one too long", () => {
    const sha40 = "0123456789abcdef0123456789abcdef01234567";
    expect(hexRuns("abc1234")).toEqual(["abc1234"]);
    expect(hexRuns(`${sha40} x`)).toEqual([sha40]);
    expect(hexRuns(`${sha40}8`)).toEqual([]);
    expect(hexRuns("abc123")).toEqual([]);
    expect(hexRuns("xabc1234 _abc1234 abc1234_ (abc1234)")).toEqual(["abc1234"]);
  });
});

describe("anchorsIn", () => {
  it("equals the pattern-by-pattern definition, and a limit keeps its first anchors", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 6 }), (text, limit) => {
        const all = referenceAnchors(text);
        expect(anchorsIn(text)).toEqual(all);
        expect(anchorsIn(text, limit)).toEqual(all.slice(0, limit));
      }),
      { numRuns: 1000 },
    );
  });
});

/** The definition: every tier tried line by line, the first hit wins, else the first line. */
function referenceErrorLine(output: string): string | undefined {
  const tiers = [
    /\b\w*(Error|Exception)(\[\w+\])?:\s/,
    /\b\w*(Error|Exception)\b|panic|traceback|fatal/,
    /\b(error|fail(ed|ure)?|cannot|can't|not found|denied|refused)\b/i,
    /[✗●×]/,
  ];
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^(tests?:|test files)/i.test(line));
  for (const tier of tiers) {
    const hit = lines.find((line) => tier.test(line));
    if (hit) return hit;
  }
  return lines[0];
}

describe("errorLineOf", () => {
  it("equals the line-by-line definition", () => {
    const pieceArb = fc.oneof(
      fc.constantFrom("\n", " ", "\t", "x", "_", "-", ":", "é"),
      fc.constantFrom("TypeError", "MyException", "Errors", "xError_", "panic", "fatal", "traceback", "Tests: 3 failed", "Test Files 1", "Error: ", "Error[E1]: ", "Error:"),
      fc.constantFrom("error", "FAILED", "failure", "cannot", "can't", "not found", "denied", "refused", "✗", "●", "×", "ok"),
    );
    fc.assert(
      fc.property(fc.array(pieceArb, { maxLength: 60 }), (pieces) => {
        const output = pieces.join("");
        expect(errorLineOf(output)).toBe(referenceErrorLine(output));
      }),
      { numRuns: 2000 },
    );
  });

  it("a named error with its message wins over a heading that only names one", () => {
    const vitest = "⎯⎯⎯⎯⎯⎯ Unhandled Error ⎯⎯⎯⎯⎯⎯⎯\nError: [vitest-pool]: Failed to start threads worker\n ❯ start pool.ts:12";
    expect(errorLineOf(vitest)).toBe("Error: [vitest-pool]: Failed to start threads worker");
  });
});
