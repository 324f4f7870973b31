/**
 * Kiro CLI's `/chat save` (core/formats/kiro.ts) on a composed save
 * (test/helpers/composed-sessions.ts) and on real saves where they are
 * present (optional fixtures): recognised by one recogniser; the transcript
 * up to `/compact` as the conversation before it, the compaction there with
 * the file's summary, the history as what is sent after; usage as the
 * window's share; the facts read Kiro's tools. Counts of the real files come
 * from their JSON, not from the reader.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../core/checkride/facts.ts";
import { acceptingJsonValue } from "../../core/formats/recognise.ts";
import { textOf } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { sessionCwd } from "../../core/session-info.ts";
import { kiroSave } from "../helpers/composed-sessions.ts";
import { fixturePath, PRESENT_OPTIONAL_FIXTURES } from "../helpers/fixtures.ts";

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("a Kiro CLI save (composed)", () => {
  it("is recognised as Kiro by one recogniser only", () => {
    expect(acceptingJsonValue(kiroSave())).toEqual(["kiro"]);
  });

  it("reads the transcript up to /compact, the compaction with the file's summary, then the history as sent", () => {
    const session = loadSession(encode(kiroSave()), { strict: true });
    expect(session.format).toBe("kiro");
    const branch = session.branch(null);
    expect(branch.map((m) => [m.id, m.role])).toEqual([
      ["T0", "user"],
      ["T1", "assistant"],
      ["T2", "assistant"],
      ["T3", "assistant"],
      ["T4", "assistant"],
      ["summary", "summary"],
      ["H0u", "user"],
      ["H0a", "assistant"],
      ["H1u#0", "toolResult"],
      ["H1a", "assistant"],
      ["H2u#0", "toolResult"],
      ["H2a", "assistant"],
    ]);
    expect(textOf(branch[0]!)).toBe("Fix the ledger import. Never touch migrations/.");
    const [compaction] = session.recordedCompactions(null);
    expect(compaction).toMatchObject({ index: 1, kind: "kiro-compact", trigger: "manual", line: 6, summary: expect.stringContaining("## OBJECTIVE") });
    expect(compaction!.before.map((m) => m.id)).toEqual(["T0", "T1", "T2", "T3", "T4"]);
    expect(compaction!.after.map((m) => m.id)).toEqual(["summary"]);
    expect(compaction!.droppedMessageIds).toEqual(["T0", "T1", "T2", "T3", "T4"]);
    expect(session.recordedContext(null).messages.map((m) => m.id)).toEqual(["summary", "H0u", "H0a", "H1u#0", "H1a", "H2u#0", "H2a"]);
    expect(session.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^the history \/compact replaced is not in the file/)]);
    expect(sessionCwd(session)).toBe("/home/dev/ledger");
    expect(session.usage(null)).toMatchObject({ contextWindow: 200000, turns: [{ contextTokens: 25000 }, { contextTokens: 26000 }, { contextTokens: 27000 }] });
  });

  it("gives the facts Kiro's tools mean, and the rule said before the compaction", () => {
    const session = loadSession(encode(kiroSave()));
    const facts = extractFacts(session.branch(null), { cwd: sessionCwd(session), format: session.format });
    expect(facts.modifiedFiles).toEqual(["src/report.ts"]);
    expect(facts.lastRun).toMatchObject({ command: "npm test", passed: true });
    expect([...facts.rules, ...facts.ruleCandidates].map((r) => r.text)).toContain("Never touch migrations/.");
  });

  it("without a /compact line, the summary opens the context and no compaction is invented", () => {
    const save = kiroSave();
    save.transcript = (save.transcript as string[]).filter((line) => line !== "> /compact");
    const session = loadSession(encode(save));
    expect(session.recordedCompactions(null)).toEqual([]);
    expect(session.branch(null)[0]!.role).toBe("summary");
    expect(session.warnings[0]!.message).toMatch(/has no \/compact line/);
  });
});

const KIRO = "kiro/meta-introspector__kiro.el__-shell--7--20260310-172011-compacted.json";

describe.skipIf(!PRESENT_OPTIONAL_FIXTURES.includes(KIRO))(`a real Kiro CLI save after /compact (${KIRO}; \`npm run fixtures\` fetches it)`, () => {
  it("holds the transcript up to the last /compact, the summary and the history, with the counts of the raw file", () => {
    const bytes = readFileSync(fixturePath(KIRO));
    const raw = JSON.parse(new TextDecoder().decode(bytes));
    const transcript: string[] = raw.transcript;
    const compactAt = transcript.findLastIndex((line) => line.startsWith("> /compact"));
    const shown = transcript.slice(0, compactAt).filter((line) => line.trim() !== "").length;
    const toolUses = raw.history.flatMap((entry: any) => entry.assistant.ToolUse?.tool_uses ?? []).length;
    const results = raw.history.flatMap((entry: any) => entry.user.content.ToolUseResults?.tool_use_results ?? entry.user.content.CancelledToolUses?.tool_use_results ?? []).length;

    const session = loadSession(bytes);
    expect(session.format).toBe("kiro");
    const [compaction, ...more] = session.recordedCompactions(null);
    expect(more).toEqual([]);
    expect(compaction!.before).toHaveLength(shown);
    expect(compaction!.summary).toBe(raw.latest_summary[0]);
    const branch = session.branch(null);
    expect(branch.flatMap((m) => m.blocks).filter((b) => b.type === "toolCall")).toHaveLength(toolUses);
    expect(branch.filter((m) => m.role === "toolResult")).toHaveLength(results);
    expect(session.toolCallIds.size).toBe(toolUses);
  });
});
