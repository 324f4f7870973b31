/**
 * The audit at a compaction's moment: facts only from the branch up to it,
 * the checkride on after and on the transparent view of the same branch,
 * and what was dropped, each tool output recoverable from the original.
 */
import { readFileSync } from "node:fs";
import { TOKENIZER_LABEL, contextTokens } from "../../../core/tokens.ts";
import { headerIds } from "../../../core/checkride/session.ts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeEndpoint, type FakeEndpoint } from "../../helpers/fake-endpoint.ts";
import { auditOneCompaction, auditSession, compactionMarks } from "../../../core/audit/session.ts";
import { compactionRow } from "../../../core/audit/rows.ts";
import { auditCompaction, branchUpTo, transparentView } from "../../../core/audit/moment.ts";
import { sessionCwd } from "../../../core/session-info.ts";
import { digestPayload } from "../../../core/hash.ts";
import { loadSession } from "../../../core/session.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../../helpers/fixtures.ts";

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const at = "2026-11-20T10:00:00.000Z";
const message = (id: string, parentId: string | null, body: object) => ({ type: "message", id, parentId, timestamp: at, message: { timestamp: 0, ...body } });

/** A Pi session: the user asks, the agent writes src/ledger.ts, then a compaction keeps only the last exchange. */
const COMPOSED = jsonl([
  { type: "session", version: 3, id: "p", timestamp: at, cwd: "/w" },
  message("e1", null, { role: "user", content: "Fix the rounding in the ledger export.\nRules: never touch the tests." }),
  message("e2", "e1", { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "write", arguments: { path: "/w/src/ledger.ts", content: "export const x = 1;" } }] }),
  message("e3", "e2", {
    role: "toolResult",
    toolCallId: "t1",
    toolName: "write",
    content: [{ type: "text", text: "Successfully wrote 19 bytes to /w/src/ledger.ts" }],
    isError: false,
  }),
  message("e4", "e3", { role: "user", content: "Now add a changelog line." }),
  message("e5", "e4", { role: "assistant", content: [{ type: "text", text: "Adding it." }] }),
  { type: "compaction", id: "c1", parentId: "e5", timestamp: at, summary: "The user asked for a changelog line.", firstKeptEntryId: "e4", tokensBefore: 4000 },
  message("e6", "c1", { role: "user", content: "Also mention PR #4242 in it." }),
]);

describeWithFixtures("audit of a composed Pi compaction (labelled)", async () => {
  const session = loadSession(COMPOSED);
  const {
    compactions: [audit],
  } = await auditSession(session);

  it("lists the modified file and the rule as facts present before and missing after", () => {
    expect(audit!.dropped.facts).toEqual([
      { probe: "files", fate: "fell-out", fact: "src/ledger.ts", missingItems: [], items: 1 },
      { probe: "rules", fate: "fell-out", fact: "Rules: never touch the tests.", missingItems: [], items: 1 },
    ]);
  });

  it("lists the first request as summarised and the write's output as dropped, recoverable by its hash", async () => {
    expect(audit!.dropped.humanMessages).toEqual([{ messageId: "e1", line: 2, fate: "summarised", chars: 68 }]);
    const [output] = audit!.dropped.toolOutputs;
    expect(output).toMatchObject({ messageId: "e3", callId: "t1", toolName: "write", fate: "dropped", recoveryId: "e3#/blocks" });
    const original = session.branch(null).find((m) => m.id === "e3")!;
    expect(output!.sha256).toBe((await digestPayload(original.blocks)).sha256);
    expect(audit!.dropped.messageIds).toEqual(["e1", "e2", "e3"]);
  });

  it("takes facts from the branch up to the compaction only (the later PR number is not an anchor)", () => {
    const anchors = audit!.checkride.recorded.probes.find((p) => p.id === "anchors")!;
    expect(anchors.status).toBe("skipped");
    expect(audit!.branchMessages).toBe(5);
  });

  it("scores what was kept against what transparent would have kept, with both sizes", () => {
    // intent (the changelog request) survives; files and rules do not. Transparent keeps all three.
    expect(audit!.facts).toEqual({ asked: 3, recorded: 1, transparent: 3, kept: 1, fellOut: 2, goneBefore: 0 });
    // Sizes are tokens of the model's view, counted by the one implementation the stats use.
    expect(audit!.size.unit).toBe(TOKENIZER_LABEL);
    expect(audit!.size.after).toBe(contextTokens(session.recordedCompactions(null)[0]!.after, session.format).total);
    expect(audit!.size.transparent).toBeGreaterThan(audit!.size.after);
    expect(audit!.tokensBefore).toBe(4000);
  });
});

describeWithFixtures("audit with the endpoint reader", () => {
  let server: FakeEndpoint;
  beforeAll(async () => {
    server = await startFakeEndpoint({ files: "src/ledger.ts", rules: "Rules: never touch the tests.", intent: "Now add a changelog line." });
  });
  afterAll(async () => {
    await server.close();
  });

  it("asks the model about the after context and the transparent view, and still reads what was dropped literally", async () => {
    const session = loadSession(COMPOSED);
    const {
      compactions: [audit],
    } = await auditSession(session, { reader: "endpoint", endpoint: { url: `${server.url}/ok/v1`, model: "tiny" } });
    expect(server.requests.filter((r) => r.path === "/ok/v1/chat/completions")).toHaveLength(2);
    expect(audit!.checkride.recorded.reader).toBe("endpoint");
    expect(audit!.checkride.transparent.reader).toBe("endpoint");
    // This fake model answers from memory it does not have: the score is its, the dropped list is the context's.
    // The ledger is the literal reader's on either side: what the context holds, whatever the model says.
    expect(audit!.facts).toEqual({ asked: 3, recorded: 3, transparent: 3, kept: 1, fellOut: 2, goneBefore: 0 });
    expect(audit!.dropped.facts.map((f) => f.probe)).toEqual(["files", "rules"]);
  });
});

describeWithFixtures("audit on real sessions", () => {
  it("gives compaction #1 the same audit whether or not the file goes on after it (no later message leaks in)", async () => {
    const relative = "pi/badlogic__pi-mono__before-compaction.jsonl";
    const full = await auditSession(loadSession(readFixture(relative)));
    const first = full.compactions[0]!;
    const cut = readFileSync(fixturePath(relative), "utf8").split("\n").slice(0, first.line).join("\n") + "\n";
    const truncated = await auditSession(loadSession(cut));
    expect(full.compactions).toHaveLength(2);
    expect(truncated.compactions).toHaveLength(1);
    expect(compactionRow(truncated.compactions[0]!)).toEqual(compactionRow(first));
    expect(truncated.compactions[0]!.checkride).toEqual(first.checkride);
  });

  it("reports a microcompact's cleared tool results as cleared, each named in the boundary", async () => {
    const session = loadSession(readFixture("claude/entireio__cli__f9-f6f611b469.jsonl"));
    const {
      compactions: [micro, compact],
    } = await auditSession(session);
    const named = new Set(
      session.entries.flatMap((e) => (e.data as { microcompactMetadata?: { compactedToolIds: string[] } } | undefined)?.microcompactMetadata?.compactedToolIds ?? []),
    );
    expect(micro!.dropped.toolOutputs.length).toBeGreaterThan(0);
    for (const output of micro!.dropped.toolOutputs) {
      expect(output.fate).toBe("cleared");
      expect(named.has(output.callId!)).toBe(true);
    }
    expect(micro!.dropped.humanMessages).toEqual([]);
    expect(micro!.size.after).toBeLessThan(micro!.size.before);
    // The full compaction that follows drops the already-cleared results whole; their hashes are of the original output.
    const again = compact!.dropped.toolOutputs.find((o) => o.messageId === micro!.dropped.toolOutputs[0]!.messageId)!;
    expect(again.fate).toBe("dropped");
    expect(again.sha256).toBe(micro!.dropped.toolOutputs[0]!.sha256);
  });

  it("maps Codex's verbatim copies of the user's messages back to the originals, so they are not counted as dropped", async () => {
    const session = loadSession(readFixture("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl"));
    const {
      compactions: [first],
    } = await auditSession(session);
    const compaction = session.recordedCompactions(null)[0]!;
    const byId = new Map([...compaction.before, ...compaction.after].map((m) => [m.id, m]));
    const copies = Object.entries(first!.copiedFrom);
    expect(copies.length).toBeGreaterThan(0);
    for (const [afterId, beforeId] of copies) {
      expect(afterId.startsWith(`${compaction.entryId}.r`)).toBe(true);
      expect(byId.get(afterId)!.blocks.filter((b) => b.type === "text")).toEqual(byId.get(beforeId)!.blocks.filter((b) => b.type === "text"));
    }
    // Every user message before it is either copied into the replacement history or listed as dropped.
    const copied = new Set(Object.values(first!.copiedFrom));
    const listed = new Set(first!.dropped.humanMessages.map((m) => m.messageId));
    const users = compaction.before.filter((m) => m.role === "user" && m.blocks.some((b) => b.type === "text" && b.text.trim() !== "" && !b.text.startsWith("<")));
    for (const user of users) expect(copied.has(user.id) || listed.has(user.id), user.id).toBe(true);
  });

  it("marks compactions for a timeline without a checkride", () => {
    const marks = compactionMarks(loadSession(readFixture("codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl")));
    expect(marks.map((m) => [m.index, m.kind, m.messagesAfter])).toEqual([
      [1, "codex-compacted", 10],
      [2, "codex-compacted", 13],
    ]);
    expect(marks.every((m) => m.size.after < m.size.before)).toBe(true);
  });

  it.each([
    "pi/badlogic__pi-mono__before-compaction.jsonl",
    "claude/entireio__cli__f9-f6f611b469.jsonl",
    "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl",
    "composed/pi-v3-tree.jsonl",
  ])("shares one transparent run: on %s the view of the branch up to each compaction is the full view's first messages", async (relative) => {
    const session = loadSession(readFixture(relative));
    const branch = session.branch(null);
    const full = await transparentView(branch);
    const audited = await auditSession(session);
    for (const compaction of session.recordedCompactions(null)) {
      const sofar = branchUpTo(branch, compaction);
      expect(await transparentView(sofar)).toEqual(full.slice(0, sofar.length));
      // And the audit with the shared run equals the audit that runs transparent itself.
      const alone = await auditCompaction(compaction, branch, { reader: "literal", cwd: sessionCwd(session), format: session.format, sessionIds: headerIds(session.header) });
      const shared = audited.compactions[compaction.index - 1]!;
      expect(shared).toEqual(alone);
      expect(await auditOneCompaction(session, compaction.index)).toEqual(alone);
      // Plain data: it crosses to the app's main thread unchanged.
      expect(structuredClone(alone)).toEqual(alone);
    }
  });

  it("audits nothing on a session without compactions", async () => {
    const session = loadSession(readFixture("composed/openai-chat.json"));
    expect((await auditSession(session)).compactions).toEqual([]);
    expect(await auditOneCompaction(session, 1)).toBeNull();
  });
});
