/**
 * Every grading threshold pinned at its boundary: an answer exactly at the
 * threshold passes and one item short fails, so changing a threshold's value
 * fails a test here.
 */
import { describe, expect, it } from "vitest";
import type { Facts } from "../../../core/checkride/facts.ts";
import { buildProbes, THRESHOLDS } from "../../../core/checkride/probes.ts";

const base: Facts = { modifiedFiles: [], readFiles: [], fileSources: {}, anchors: [], rules: [], anchorCandidates: [], ruleCandidates: [] };
const src = { messageId: "m", quote: "" };
const probe = (facts: Partial<Facts>, id: string) => buildProbes({ ...base, ...facts }).find((p) => p.id === id)!;

describe("grading thresholds", () => {
  it(`files: the newest ${THRESHOLDS.filesAsked} paths are asked, ${THRESHOLDS.filesCoverage * 100}% of them must be named`, () => {
    const paths = Array.from({ length: 12 }, (_, i) => `src/module${String.fromCharCode(97 + i)}.ts`);
    const files = probe({ modifiedFiles: paths }, "files");
    expect(files.items).toEqual(paths.slice(-10));
    expect(files.items).toHaveLength(THRESHOLDS.filesAsked);
    expect(files.grade(paths.slice(-8).join(" ")).pass).toBe(true); // 8 of 10
    expect(files.grade(paths.slice(-7).join(" ")).pass).toBe(false); // 7 of 10
  });

  it(`verify: ${THRESHOLDS.verifyCommandCoverage * 100}% of the command's distinctive tokens and the outcome`, () => {
    const verify = probe({ lastRun: { command: "pnpm vitest coverage", passed: true, messageId: "m", source: src } }, "verify");
    expect(verify.grade("ran vitest coverage: passed").pass).toBe(true); // 2 of 3 tokens
    expect(verify.grade("ran pnpm vitest: passed").pass).toBe(true);
    expect(verify.grade("ran vitest: passed").pass).toBe(false); // 1 of 3
  });

  it(`error: the ${THRESHOLDS.errorTokens} most distinctive tokens, ${THRESHOLDS.errorCoverage * 100}% of them`, () => {
    const error = probe({ unresolvedError: { text: "alphabetical bravissimo charleston deltaforce echoing", command: "x", messageId: "m", source: src } }, "error");
    expect(error.items).toHaveLength(THRESHOLDS.errorTokens);
    expect(error.items).not.toContain("echoing"); // the shortest of five is left out
    expect(error.grade("alphabetical bravissimo").pass).toBe(true); // 2 of 4
    expect(error.grade("alphabetical").pass).toBe(false); // 1 of 4
  });

  it(`intent: the first ${THRESHOLDS.intentTokens} distinctive tokens, ${THRESHOLDS.intentCoverage * 100}% of them`, () => {
    const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}x`);
    const intent = probe({ latestRequest: { text: words.join(" "), messageId: "m", source: src } }, "intent");
    expect(intent.items).toEqual(words.slice(0, THRESHOLDS.intentTokens));
    const tenOfSixteen = words.slice(0, 10).join(" "); // 0.625
    const nineOfSixteen = words.slice(0, 9).join(" "); // 0.5625
    expect(intent.grade(tenOfSixteen).pass).toBe(true);
    expect(intent.grade(nineOfSixteen).pass).toBe(false);
  });

  it(`anchors: the top ${THRESHOLDS.anchorsAsked}, ${THRESHOLDS.anchorsCoverage * 100}% of them verbatim`, () => {
    const values = ["#101", "#102", "#103", "#104", "#105", "#106", "#107"];
    const anchors = probe({ anchors: values.map((value) => ({ value, mentions: 1, source: src })) }, "anchors");
    expect(anchors.items).toEqual(values.slice(0, THRESHOLDS.anchorsAsked));
    expect(anchors.grade("#101 #102 #103").pass).toBe(true); // 3 of 6
    expect(anchors.grade("#101 #102 #107").pass).toBe(false); // 2 of 6 (the 7th is not asked)
  });

  it(`rules: the newest ${THRESHOLDS.rulesAsked}, ${THRESHOLDS.rulesCoverage * 100}% of them, each by ${THRESHOLDS.itemCoverage * 100}% of its tokens and its rule word`, () => {
    const texts = ["never paint alpha", "never rename bravo", "never delete charlie", "never move delta", "never copy echo", "never merge foxtrot", "never fork golf"];
    const rules = probe({ rules: texts.map((text) => ({ text, messageId: "m", source: src })) }, "rules");
    expect(rules.items).toEqual(texts.slice(-THRESHOLDS.rulesAsked)); // newest last: the oldest is left out
    expect(rules.grade("never rename bravo, never delete charlie, never move delta").pass).toBe(true); // 3 of 6
    expect(rules.grade("never paint alpha, never rename bravo, never delete charlie").pass).toBe(false); // alpha is not asked: 2 of 6
    expect(rules.grade("rename bravo, delete charlie, move delta").pass).toBe(false); // the rule word is missing
  });

  it(`a rule counts when ${THRESHOLDS.itemCoverage * 100}% of its distinctive tokens are there`, () => {
    // Five distinctive tokens: three of them is 60%, two is 40%.
    const rules = probe({ rules: [{ text: "never rename exported helpers", messageId: "m", source: src }] }, "rules");
    expect(rules.items).toHaveLength(1);
    const withTokens = probe({ rules: [{ text: "never rename public exports inside", messageId: "m", source: src }] }, "rules");
    expect(withTokens.grade("never rename public").pass).toBe(true); // never, rename, public: 3 of 5
    expect(withTokens.grade("never rename").pass).toBe(false); // 2 of 5
    expect(rules.grade("never rename").pass).toBe(false); // 2 of 4
  });

  it(`memory items: ${THRESHOLDS.memoryCoverage * 100}% of them`, () => {
    const memory = { done: ["wrote parser", "wrote lexer", "wrote printer", "wrote checker"], plan: [], next: [], decisions: [] };
    const done = probe({ memory }, "done");
    expect(done.grade("wrote parser and wrote lexer").pass).toBe(true); // 2 of 4
    expect(done.grade("wrote parser").pass).toBe(false); // 1 of 4
  });
});
