/** Scoring the answer key against labels: graded rules and candidates tallied apart, candidates carrying the recall. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { anchorForms, precision, recall, scoreFacts, type FixtureLabels } from "../../../core/checkride/label-score.ts";
import type { Facts } from "../../../core/checkride/facts.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const at = (messageId: string, start: number, text: string) => ({ messageId, span: [start, start + text.length] as [number, number], sha256: sha256(text) });
const rule = (messageId: string, start: number, text: string) => ({ text, messageId, source: { messageId, span: [start, start + text.length] as [number, number], quote: text } });

const labels: FixtureLabels = {
  fixture: "composed",
  format: "pi",
  method: "test",
  rules: [at("u1", 0, "Never push to main."), at("u2", 0, "I don't want padding."), at("u3", 10, "Use real values, no indices.")],
  notRules: [],
};

describe("label scores", () => {
  it("graded rules are scored alone; candidates count as right when a label says rule, and add to what is found", () => {
    const facts: Facts = {
      modifiedFiles: [],
      readFiles: [],
      fileSources: {},
      anchors: [],
      rules: [rule("u1", 0, "Never push to main.")],
      anchorCandidates: [],
      ruleCandidates: [
        { ...rule("u2", 0, "I don't want padding."), why: "preference" },
        { ...rule("u4", 0, "Keep it as is for now."), why: "scope" },
      ],
    };
    const scores = scoreFacts(facts, labels, sha256);
    expect(scores.rules).toEqual({ right: 1, given: 1, found: 1, expected: 3 });
    expect(scores.ruleCandidates).toEqual({ right: 1, given: 2, found: 2, expected: 3 });
    expect(precision(scores.rules)).toBe(1);
    expect(recall(scores.ruleCandidates)).toBeCloseTo(2 / 3);
  });

  it("anchor candidates: right when labelled, and what they find adds to the graded anchors' (the candidates the key lists)", () => {
    const anchor = (value: string) => ({ value, mentions: 1, source: { messageId: "m", quote: value } });
    const candidate = (value: string, why: string) => ({ ...anchor(value), why });
    const facts: Facts = {
      modifiedFiles: [],
      readFiles: [],
      fileSources: {},
      anchors: [anchor("4f1c2ab9"), anchor("deadc0de1")],
      rules: [],
      anchorCandidates: [candidate("https://a.dev/x", "a link"), candidate("#12", "a ref")],
      ruleCandidates: [],
    };
    const scores = scoreFacts(facts, { ...labels, anchors: [{ sha256: sha256("4f1c2ab9") }, { sha256: sha256("https://a.dev/x") }, { sha256: sha256("TS2305") }] }, sha256);
    expect(scores.anchors).toEqual({ right: 1, given: 2, found: 1, expected: 3 });
    expect(scores.anchorCandidates).toEqual({ right: 1, given: 2, found: 2, expected: 3 });
  });

  it("an anchor matches its label in the form the reviewer wrote it: 'Issue #181' for #181, a commit's short hash for its full one", () => {
    const anchor = (value: string) => ({ value, mentions: 1, source: { messageId: "m", quote: value } });
    const facts: Facts = {
      modifiedFiles: [],
      readFiles: [],
      fileSources: {},
      anchors: [anchor("#181"), anchor("e42081283c60c00cc14ecef6ac744ac1075a18c2"), anchor("#7")],
      rules: [],
      anchorCandidates: [],
      ruleCandidates: [],
    };
    const scores = scoreFacts(facts, { ...labels, anchors: [{ sha256: sha256("Issue #181") }, { sha256: sha256("e420812") }] }, sha256);
    expect(scores.anchors).toEqual({ right: 2, given: 3, found: 2, expected: 2 });
    // Only the same identifier: a short hash is never widened, a ref never loses its number.
    expect(anchorForms("e420812")).toEqual(["e420812"]);
    expect(anchorForms("TS2305")).toEqual(["TS2305"]);
    expect(anchorForms("#12")).toContain("PR #12");
  });

  it("error candidates: right when one is the labelled error's line; found when the graded error or a candidate is", () => {
    const text = "npm error code ENOTFOUND";
    const candidate = {
      text,
      command: "npm create vite",
      messageId: "r1",
      source: { messageId: "r1", span: [0, text.length] as [number, number], quote: text },
      why: "never ran again",
    };
    const facts: Facts = {
      modifiedFiles: [],
      readFiles: [],
      fileSources: {},
      anchors: [],
      rules: [],
      anchorCandidates: [],
      ruleCandidates: [],
      errorCandidates: [candidate, { ...candidate, messageId: "r9" }],
    };
    const scores = scoreFacts(facts, { ...labels, error: { messageId: "r1", span: [0, text.length], sha256: sha256(text) } }, sha256);
    expect(scores.error).toEqual({ right: 0, given: 0, found: 0, expected: 1 });
    expect(scores.errorCandidates).toEqual({ right: 1, given: 2, found: 1, expected: 1 });
  });

  it("a rule typed more than once is found at any of its sayings (the key keeps the newest as its source)", () => {
    const first = rule("u1", 0, "Never push to main.");
    const newest = rule("u9", 5, "Never push to main.");
    const facts: Facts = {
      modifiedFiles: [],
      readFiles: [],
      fileSources: {},
      anchors: [],
      // The label's words are longer than the rule's ("Never push to main. It is protected."): only the span says it is the same.
      rules: [{ ...newest, source: { ...newest.source, quote: "Never push to main" }, sayings: [first.source, newest.source] }],
      anchorCandidates: [],
      ruleCandidates: [],
    };
    const wider: FixtureLabels = { ...labels, rules: [at("u1", 0, "Never push to main. It is protected.")] };
    expect(scoreFacts(facts, wider, sha256).rules).toEqual({ right: 1, given: 1, found: 1, expected: 1 });
    expect(scoreFacts({ ...facts, rules: [{ ...facts.rules[0]!, sayings: undefined }] }, wider, sha256).rules).toMatchObject({ right: 0, found: 0 });
  });
});
