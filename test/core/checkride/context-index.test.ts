/**
 * The context index answers as the line-by-line scan it replaced: the last
 * line holding a text, every line holding it, the latest line and message
 * with the best share of tokens as whole words. Checked on composed contexts
 * that hold the edges (whitespace runs, line ends as word boundaries, a
 * message id split over two messages) and on every fixture's own branch.
 */
import { describe, expect, it } from "vitest";
import { contextLines, type ContextLine } from "../../../core/checkride/context.ts";
import { ContextIndex, ContextTexts } from "../../../core/checkride/context-index.ts";
import { distinctiveTokens, normalizeText, normalizedCoverage } from "../../../core/checkride/tokens.ts";
import type { Message } from "../../../core/model.ts";
import { loadSession } from "../../../core/session.ts";
import { allFixtures, describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

/** The scan the index replaced, kept here as the reference. */
const scan = {
  last: (lines: readonly ContextLine[], needle: string) => {
    const lower = needle.toLowerCase();
    for (let i = lines.length - 1; i >= 0; i--) if (normalizeText(lines[i]!.text).includes(lower)) return i;
    return -1;
  },
  all: (lines: readonly ContextLine[], needle: string) => lines.flatMap((line, i) => (normalizeText(line.text).includes(needle.toLowerCase()) ? [i] : [])),
  best: (texts: readonly ContextLine[], tokens: string[], threshold: number) => {
    let best: ContextLine | undefined;
    let bestScore = 0;
    for (let i = texts.length - 1; i >= 0; i--) {
      const score = normalizedCoverage(normalizeText(texts[i]!.text), tokens);
      if (score > bestScore) {
        best = texts[i];
        bestScore = score;
        if (score === 1) break;
      }
    }
    return bestScore >= threshold ? best : undefined;
  },
  messages: (lines: readonly ContextLine[]) => {
    const out: ContextLine[] = [];
    for (const line of lines) {
      const last = out[out.length - 1];
      if (last && last.messageId === line.messageId) last.text += "\n" + line.text;
      else out.push({ ...line });
    }
    return out;
  },
};

const text = (id: string, body: string): Message => ({ id, role: "user", meta: {}, blocks: [{ type: "text", text: body }] });

const composed: Message[] = [
  text("a", "Run   the BUILD\twith npm run build\n\n  then check src/app.ts  "),
  text("b", "npm run build-all is not the build\nfixed TS2322 in src/app.tsx"),
  text("a", "same id again: npm test passes"),
  text("c", "ΟΔΟΣ final sigma\nbuildings are not builds"),
];

function agree(index: ContextIndex, given: readonly ContextLine[], needles: string[], items: string[]): void {
  expect(index.lines).toEqual(given);
  const lines = index.lines;
  for (const needle of needles) {
    expect(index.lastLineContaining(needle), needle).toBe(scan.last(lines, needle));
    expect(index.allLinesContaining(needle), needle).toEqual(scan.all(lines, needle));
  }
  for (const item of items) {
    const tokens = distinctiveTokens(item);
    for (const threshold of [0.5, 0.75, 1]) {
      expect(index.bestLine(tokens, threshold), item).toBe(scan.best(lines, tokens, threshold));
      expect(index.bestMessage(tokens, threshold), item).toEqual(scan.best(scan.messages(lines), tokens, threshold));
    }
  }
}

describe("context index", () => {
  it("finds what the line scan finds on composed edges", () => {
    const lines = contextLines(composed);
    const index = ContextIndex.ofMessages(composed);
    agree(
      index,
      lines,
      ["npm run build", "BUILD", "src/app.ts", "the build with", "build\nwith", "", "οδος", "zzz"],
      ["npm run build", "src/app.ts", "TS2322 app.tsx", "build", "ΟΔΟΣ sigma", "same id again npm"],
    );
    // Whole words only: the latest line with "build" is not the one with "buildings" and "builds".
    expect(index.bestLine(["build"], 1)?.text).toBe("npm run build-all is not the build");
  });

  it("reads lines handed in as such like the messages they came from", () => {
    const lines: ContextLine[] = [
      { messageId: "m1", text: "first line\nwith a break inside" },
      { messageId: "m1", text: "second  line" },
      { messageId: "m2", text: "other message" },
    ];
    agree(ContextIndex.ofLines(lines), lines, ["break inside", "line with", "second line", "other"], ["first break", "second line other"]);
  });

  it("prepares a message once for every context of an audit that holds it", () => {
    const texts = new ContextTexts();
    const before = ContextIndex.ofMessages(composed, texts);
    const after = ContextIndex.ofMessages(composed.slice(2), texts);
    // The same line objects (not equal copies): the message was split and normalized once.
    for (const line of after.lines) expect(before.lines).toContain(line);
    expect(ContextIndex.ofMessages(composed.slice(2)).lines[0]).not.toBe(after.lines[0]);
  });
});

describeWithFixtures("context index on real sessions", () => {
  it.each(allFixtures())("finds what the line scan finds on %s", async (name) => {
    const session = await loadSession(readFixture(name));
    const branch = session.branch(session.defaultLeafId).slice(-60);
    const lines = contextLines(branch);
    const words = lines
      .flatMap((line) => distinctiveTokens(line.text))
      .filter((_, i) => i % 97 === 0)
      .slice(0, 12);
    agree(ContextIndex.ofMessages(branch), lines, words, [words.slice(0, 4).join(" "), words.slice(4, 6).join(" "), words.join(" ")]);
  });
});
