/** The user's edits of the answer key: struck and added facts change the probe's checks, and the one grader applies them. */
import { describe, expect, it } from "vitest";
import { applyKeyEdits, keyFactsOf } from "../../../core/checkride/key-edits.ts";
import { buildProbes } from "../../../core/checkride/probes.ts";
import type { Facts } from "../../../core/checkride/facts.ts";

const src = (messageId: string, quote: string) => ({ messageId, line: 3, quote, role: "assistant" });
const facts: Facts = {
  modifiedFiles: ["src/a.ts", "src/b.ts", "src/c.ts"],
  readFiles: [],
  fileSources: { "src/a.ts": src("m1", "src/a.ts"), "src/b.ts": src("m2", "src/b.ts"), "src/c.ts": src("m3", "src/c.ts") },
  anchors: [],
  rules: [],
  anchorCandidates: [],
  ruleCandidates: [],
  latestRequest: {
    text: "add a ledger export for negative amounts",
    messageId: "u1",
    source: { messageId: "u1", line: 9, quote: "add a ledger export for negative amounts", role: "user" },
  },
};
const files = () => buildProbes(facts).find((p) => p.id === "files")!;

describe("answer key edits", () => {
  const withCandidates: Facts = {
    ...facts,
    anchorCandidates: [],
    ruleCandidates: [
      { text: "I want the cards without padding.", messageId: "u1", source: src("u1", "I want the cards without padding."), why: "says what the user wants" },
      { text: "the export should skip zero rows", messageId: "u1", source: src("u1", "the export should skip zero rows"), why: "'should'" },
    ],
  };
  const rulesProbe = (edits?: Parameters<typeof applyKeyEdits>[1]) =>
    applyKeyEdits(
      buildProbes(withCandidates).find((p) => p.id === "rules")!,
      edits,
    );

  it("candidates alone are shown but not graded: the rules probe is skipped and says so", () => {
    const probe = rulesProbe();
    expect(probe.expected).toBeNull();
    expect(probe.skipReason).toMatch(/accept a candidate/);
    expect(probe.candidates?.map((c) => c.text)).toEqual(["I want the cards without padding.", "the export should skip zero rows"]);
  });

  it("an accepted candidate is graded, keeps its source and leaves the candidates; a struck one stays listed, struck", () => {
    const probe = rulesProbe({ struck: [{ probe: "rules", fact: "the export should skip zero rows" }], added: [{ probe: "rules", text: "I want the cards without padding." }] });
    expect(probe.expected).toBe("I want the cards without padding.");
    expect(probe.facts).toEqual([expect.objectContaining({ text: "I want the cards without padding.", added: true, source: expect.objectContaining({ messageId: "u1" }) })]);
    expect(probe.candidates).toEqual([expect.objectContaining({ text: "the export should skip zero rows", struck: true })]);
    expect(probe.grade("the user said: I want the cards without padding").pass).toBe(true);
    expect(probe.grade("nothing about it").pass).toBe(false);
  });

  it("anchors: links are candidates beside the graded commits; with none graded the probe is skipped, and an accepted link is quoted verbatim", () => {
    const link = "https://github.com/o/r/pull/9";
    const anchorFacts: Facts = {
      ...facts,
      anchors: [{ value: "4f1c2ab9", mentions: 2, source: src("m1", "4f1c2ab9") }],
      anchorCandidates: [{ value: link, mentions: 1, source: src("u1", link), why: "a link: most were not kept" }],
    };
    const anchorsProbe = (from: Facts) => buildProbes(from).find((p) => p.id === "anchors")!;
    expect(anchorsProbe(anchorFacts)).toMatchObject({ items: ["4f1c2ab9"], candidates: [{ text: link, why: "a link: most were not kept" }] });
    const onlyLinks = anchorsProbe({ ...anchorFacts, anchors: [] });
    expect(onlyLinks.expected).toBeNull();
    expect(onlyLinks.skipReason).toMatch(/accept a candidate/);
    const accepted = applyKeyEdits(onlyLinks, { struck: [], added: [{ probe: "anchors", text: link }] });
    expect(accepted.facts).toEqual([expect.objectContaining({ text: link, added: true, source: expect.objectContaining({ messageId: "u1" }) })]);
    expect(accepted.grade(`see ${link}`).pass).toBe(true);
    expect(accepted.grade("see the pull request").pass).toBe(false);
  });

  it("lists one fact per path, each with its source", () => {
    const list = keyFactsOf(files());
    expect(list.map((f) => [f.text, f.source?.messageId])).toEqual([
      ["src/a.ts", "m1"],
      ["src/b.ts", "m2"],
      ["src/c.ts", "m3"],
    ]);
  });

  it("striking a fact drops its check and lowers what an answer must name", () => {
    const answer = "I edited src/a.ts and src/b.ts";
    expect(files().grade(answer).pass).toBe(false); // 2 of 3 < 80%
    const edited = applyKeyEdits(files(), { struck: [{ probe: "files", fact: "src/c.ts" }], added: [] });
    expect(edited.edited).toBe(true);
    expect(edited.items).toEqual(["src/a.ts", "src/b.ts"]);
    expect(edited.grade(answer).pass).toBe(true);
  });

  it("an added fact must be met too, and is marked as the user's", () => {
    const edited = applyKeyEdits(files(), { struck: [], added: [{ probe: "files", text: "docs/README.md" }] });
    expect(edited.facts.at(-1)).toMatchObject({ text: "docs/README.md", added: true });
    expect(edited.grade("src/a.ts src/b.ts src/c.ts").pass).toBe(false); // 3 of 4 < 80%
    expect(edited.grade("src/a.ts src/b.ts src/c.ts README.md").pass).toBe(true);
  });

  it("striking every fact of a probe skips it, with the reason", () => {
    const intent = buildProbes(facts).find((p) => p.id === "intent")!;
    const edited = applyKeyEdits(intent, { struck: [{ probe: "intent", fact: intent.expected! }], added: [] });
    expect(edited.expected).toBeNull();
    expect(edited.skipReason).toMatch(/struck out of the key by the user/);
  });

  it("edits of other probes leave a probe unchanged", () => {
    const probe = files();
    const edited = applyKeyEdits(probe, { struck: [{ probe: "rules", fact: "x" }], added: [] });
    expect(edited.edited).toBe(false);
    expect(edited.grading).toEqual(probe.grading);
  });
});
