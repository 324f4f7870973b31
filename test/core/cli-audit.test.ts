/** `audit <file> [--json]` end to end through the real CLI. */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

const ROW_KEYS = [
  "index",
  "line",
  "entryId",
  "kind",
  "trigger",
  "tokensBefore",
  "tokensAfter",
  "viewTokensBefore",
  "viewTokensAfter",
  "viewTokensUnit",
  "messagesBefore",
  "messagesAfter",
  "facts",
  "factFates",
  "dropped",
];

describeWithFixtures("audit", () => {
  it("prints one JSON row per compaction the file records, with the file's own token figures", () => {
    const file = fixturePath("claude/entireio__cli__f9-f6f611b469.jsonl");
    const { status, stdout, stderr } = runCli(["audit", file, "--json"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const { compactions, ...rest } = JSON.parse(stdout);
    expect(rest).toEqual({});
    const raw = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const boundaries = raw.filter((r) => r.subtype === "compact_boundary" || r.subtype === "microcompact_boundary");
    expect(compactions).toHaveLength(boundaries.length);
    for (const [i, row] of compactions.entries()) {
      expect(Object.keys(row)).toEqual(ROW_KEYS);
      expect(Object.keys(row.facts)).toEqual(["asked", "recorded", "transparent", "kept", "fellOut", "goneBefore"]);
      expect(row.facts.kept + row.facts.fellOut + row.facts.goneBefore).toBe(row.facts.asked);
      expect(row.factFates).toHaveLength(row.facts.asked);
      expect(row.dropped.facts).toHaveLength(row.facts.fellOut);
      // The model's view of the same contexts, beside the file's figures.
      expect(row.viewTokensUnit).toMatch(/^o200k/);
      expect(row.viewTokensBefore).toBeGreaterThan(row.viewTokensAfter);
      expect(Object.keys(row.dropped)).toEqual(["facts", "humanMessages", "toolOutputs"]);
      expect(row.entryId).toBe(boundaries[i].uuid);
      expect(row.tokensBefore).toBe((boundaries[i].compactMetadata ?? boundaries[i].microcompactMetadata).preTokens);
    }
    expect(compactions.map((r: { kind: string; trigger: string }) => [r.kind, r.trigger])).toEqual([
      ["claude-microcompact", "auto"],
      ["claude-compact", "auto"],
    ]);
    expect(compactions[1].tokensAfter).toBeNull();
  });

  it("prints an empty list and exits 0 for a session without compactions", () => {
    const { status, stdout } = runCli(["audit", fixturePath("composed/openai-chat.json"), "--json"]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ compactions: [] });
    const text = runCli(["audit", fixturePath("composed/openai-chat.json")]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/no recorded compaction/);
  });

  it("prints one human row per compaction", () => {
    const { status, stdout } = runCli(["audit", fixturePath("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl")]);
    expect(status).toBe(0);
    const lines = stdout.trim().split("\n");
    const rows = lines.filter((line) => line.startsWith("#"));
    expect(rows).toHaveLength(2);
    // Why the audit's score and the checkride's differ, said under the rows.
    expect(lines.at(-1)).toMatch(/^The audit scores each compaction at its moment/);
    expect(rows[0]).toMatch(
      /^#1 line 272 codex-compacted · 88,246 → 13,290 tokens \(the file's\) · 174 → 10 messages · .* facts \d\/\d kept \(\d fell out here\), transparent \d\/\d · dropped /,
    );
  });

  it("refuses an unknown reader with a usage error", () => {
    const { status, stderr } = runCli(["audit", fixturePath("composed/pi-v3-tree.jsonl"), "--reader", "guess"]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^error: unknown reader "guess"/);
  });
});
