/**
 * The literal reader's match thresholds at their boundaries: a context line
 * holding exactly the share is quoted, one token less is not.
 */
import { describe, expect, it } from "vitest";
import type { Facts } from "../../../core/checkride/facts.ts";
import { LITERAL_MATCH, literalReader } from "../../../core/checkride/literal-reader.ts";
import { buildProbes } from "../../../core/checkride/probes.ts";
import { distinctiveTokens } from "../../../core/checkride/tokens.ts";

const base: Facts = { modifiedFiles: [], readFiles: [], fileSources: {}, anchors: [], rules: [], anchorCandidates: [], ruleCandidates: [] };
const src = { messageId: "m", quote: "" };
const NOT_FOUND = "Not found in the context.";
/** Ten distinctive words: a tenth of a share apart, so a threshold moved by 0.1 changes an outcome. */
const TEN = "alphabet bravado charisma dolphins elephant falconry gazebo harmonica igloo jasmine".split(" ");
const first = (n: number) => TEN.slice(0, n).join(" ");
const answer = (facts: Partial<Facts>, id: string, context: string) =>
  literalReader(
    buildProbes({ ...base, ...facts }).filter((p) => p.id === id),
    [{ messageId: "c1", text: context }],
  )[id as "rules"]!.answer;

describe("literal reader thresholds", () => {
  it(`a rule is quoted from a line with ${LITERAL_MATCH.item * 100}% of its tokens`, () => {
    const text = `never ${first(9)}`;
    expect(distinctiveTokens(text)).toHaveLength(10);
    const facts = { rules: [{ text, messageId: "m", source: src }] };
    expect(answer(facts, "rules", `never ${first(5)}`)).not.toBe(NOT_FOUND); // 6 of 10
    expect(answer(facts, "rules", `never ${first(4)}`)).toBe(NOT_FOUND); // 5 of 10
  });

  it(`a command not found verbatim is quoted from a line with ${LITERAL_MATCH.command * 100}% of its tokens`, () => {
    const facts = { lastRun: { command: "pnpm vitest coverage report", passed: true, messageId: "m", source: src } };
    expect(answer(facts, "verify", "ran pnpm then vitest with coverage")).not.toBe(NOT_FOUND); // 3 of 4
    expect(answer(facts, "verify", "ran pnpm then vitest")).toBe(NOT_FOUND); // 2 of 4
  });

  it(`the latest request is found in a message with ${LITERAL_MATCH.request * 100}% of its tokens`, () => {
    const facts = { latestRequest: { text: first(10), messageId: "m", source: src } };
    expect(answer(facts, "intent", first(5))).not.toBe(NOT_FOUND); // 5 of 10
    expect(answer(facts, "intent", first(4))).toBe(NOT_FOUND); // 4 of 10
  });

  it(`an error line is found with ${LITERAL_MATCH.error * 100}% of its tokens`, () => {
    const facts = { unresolvedError: { text: first(10), command: "x", messageId: "m", source: src } };
    expect(answer(facts, "error", first(5))).not.toBe(NOT_FOUND); // 5 of 10
    expect(answer(facts, "error", first(4))).toBe(NOT_FOUND); // 4 of 10
  });
});
