/**
 * Shapes the real fixtures do not have, on small sessions composed here:
 * Claude Code's preservedSegment and postTokens, Codex's thread_rolled_back
 * and a compacted record without replacement_history, Pi's branch_summary.
 */
import { describe, expect, it } from "vitest";
import { loadSession } from "../../../core/session.ts";

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("Claude Code compact boundary with a preserved segment", () => {
  const base = { sessionId: "s", isSidechain: false, version: "2.1.40" };
  const user = (uuid: string, parentUuid: string | null, text: string) => ({ ...base, type: "user", uuid, parentUuid, message: { role: "user", content: text } });
  const assistant = (uuid: string, parentUuid: string, text: string) => ({
    ...base,
    type: "assistant",
    uuid,
    parentUuid,
    message: { id: `m-${uuid}`, role: "assistant", content: [{ type: "text", text }] },
  });
  const session = loadSession(
    jsonl([
      user("u1", null, "first request"),
      assistant("a1", "u1", "first answer"),
      user("u2", "a1", "second request"),
      assistant("a2", "u2", "second answer"),
      {
        ...base,
        type: "system",
        subtype: "compact_boundary",
        uuid: "b1",
        parentUuid: null,
        logicalParentUuid: "a2",
        timestamp: "2026-11-20T10:00:00.000Z",
        compactMetadata: { trigger: "manual", preTokens: 5000, postTokens: 1200, preservedSegment: { headUuid: "u2", anchorUuid: "b1", tailUuid: "a2" } },
      },
      { ...user("s1", "b1", "This session is being continued from a previous conversation. Summary: the first request."), isCompactSummary: true },
      user("u3", "s1", "third request"),
    ]),
  );
  const [compaction] = session.recordedCompactions(null);

  it("keeps the summary then the preserved messages head to tail, with the stated trigger and token figures", () => {
    expect(compaction!.kind).toBe("claude-compact");
    expect(compaction!.trigger).toBe("manual");
    expect([compaction!.tokensBefore, compaction!.tokensAfter]).toEqual([5000, 1200]);
    expect(compaction!.before.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(compaction!.after.map((m) => m.id)).toEqual(["s1", "u2", "a2"]);
    expect(compaction!.droppedMessageIds).toEqual(["u1", "a1"]);
    expect(compaction!.summary).toMatch(/^This session is being continued/);
  });

  it("sends the summary, the preserved segment and what follows as the recorded context", () => {
    expect(session.recordedContext(null).messages.map((m) => m.id)).toEqual(["s1", "u2", "a2", "u3"]);
    expect(session.recordedContext(null).droppedMessageIds).toEqual(["u1", "a1"]);
  });
});

describe("Claude Code compact boundary with preservedMessages (newer releases)", () => {
  const base = { sessionId: "s", isSidechain: false, version: "2.1.205" };
  const user = (uuid: string, parentUuid: string | null, text: string) => ({ ...base, type: "user", uuid, parentUuid, message: { role: "user", content: text } });
  const session = loadSession(
    jsonl([
      user("u1", null, "first"),
      user("u2", "u1", "second"),
      user("u3", "u2", "third"),
      {
        ...base,
        type: "system",
        subtype: "compact_boundary",
        uuid: "b1",
        parentUuid: null,
        logicalParentUuid: "u3",
        compactMetadata: { trigger: "auto", preTokens: 900, preservedMessages: { anchorUuid: "s1", uuids: ["u1", "u3"] } },
      },
      { ...user("s1", "b1", "Summary."), isCompactSummary: true },
    ]),
  );

  it("keeps exactly the listed messages after the summary", () => {
    const [compaction] = session.recordedCompactions(null);
    expect(compaction!.after.map((m) => m.id)).toEqual(["s1", "u1", "u3"]);
    expect(compaction!.droppedMessageIds).toEqual(["u2"]);
  });
});

describe("Codex thread_rolled_back and compacted without replacement_history", () => {
  const item = (payload: object) => ({ timestamp: "2026-11-20T10:00:00.000Z", type: "response_item", payload });
  const say = (role: string, text: string) => item({ type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text }] });
  const event = (payload: object) => ({ timestamp: "2026-11-20T10:00:00.000Z", type: "event_msg", payload });
  const session = loadSession(
    jsonl([
      { timestamp: "2026-11-20T10:00:00.000Z", type: "session_meta", payload: { id: "x", cwd: "/w", cli_version: "0.60.0" } },
      say("user", "turn one"),
      say("assistant", "answer one"),
      say("user", "turn two"),
      say("assistant", "answer two"),
      say("user", "turn three"),
      say("assistant", "answer three"),
      event({ type: "thread_rolled_back", num_turns: 2 }),
      event({ type: "token_count", info: { last_token_usage: { input_tokens: 900, output_tokens: 100, total_tokens: 1000 } } }),
      { timestamp: "2026-11-20T10:01:00.000Z", type: "compacted", payload: { message: "summary of turn one" } },
      say("user", "turn four"),
    ]),
  );
  const [rollback, compacted] = session.recordedCompactions(null);

  it("drops the newest N user turns on a rollback", () => {
    expect(rollback!.kind).toBe("codex-rollback");
    expect(rollback!.before.map((m) => m.id)).toEqual(["L2", "L3", "L4", "L5", "L6", "L7"]);
    expect(rollback!.after.map((m) => m.id)).toEqual(["L2", "L3"]);
    expect(rollback!.droppedMessageIds).toEqual(["L4", "L5", "L6", "L7"]);
  });

  it("rebuilds the context as Codex does without a replacement history (user messages, then the summary), with the last token_count before it", () => {
    expect(compacted!.kind).toBe("codex-compacted");
    expect(compacted!.before.map((m) => m.id)).toEqual(["L2", "L3"]);
    expect(compacted!.after.map((m) => m.id)).toEqual(["L2", "L10"]);
    expect(compacted!.summary).toBe("summary of turn one");
    expect(compacted!.tokensBefore).toBe(1000);
    expect(compacted!.tokensAfter).toBeNull();
    expect(session.recordedContext(null).messages.map((m) => m.id)).toEqual(["L2", "L10", "L11"]);
    // Counted as before: one summarising compaction (a rollback is not one).
    expect(session.recordedContext(null).compactions).toBe(1);
  });
});

describe("Codex compacted without replacement_history: the 20,000-token budget for user messages", () => {
  const say = (text: string) => ({
    timestamp: "2026-11-20T10:00:00.000Z",
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
  });
  const session = loadSession(
    jsonl([
      { timestamp: "2026-11-20T10:00:00.000Z", type: "session_meta", payload: { id: "x", cwd: "/w" } },
      {
        timestamp: "2026-11-20T10:00:00.000Z",
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>cwd /w</environment_context>" }] },
      },
      say("oldest " + "a".repeat(40_000)),
      say("middle " + "b".repeat(40_000)),
      say("newest " + "c".repeat(40_000)),
      { timestamp: "2026-11-20T10:00:00.000Z", type: "compacted", payload: { message: "summary" } },
    ]),
  );
  const [compacted] = session.recordedCompactions(null);

  it("keeps the initial context, the newest user messages whole while they fit, the next one cut in the middle, and drops the rest", () => {
    // 20,000 tokens of budget: "newest" (40,007 bytes, 10,002 tokens) fits whole, "middle" is cut to the 9,998 tokens left, "oldest" is dropped.
    expect(compacted!.after.map((m) => m.id)).toEqual(["L2", "L4", "L5", "L6"]);
    const middle = compacted!.after[1]!.blocks[0]!;
    expect(middle.type === "text" && middle.text.startsWith("middle bbb") && middle.text.endsWith("bbb")).toBe(true);
    expect(middle.type === "text" && /…\[\d+ characters cut\]…/.test(middle.text)).toBe(true);
    expect(compacted!.after[2]).toBe(compacted!.before[3]);
    expect(compacted!.droppedMessageIds).toEqual(["L3"]);
  });
});

describe("Pi branch_summary", () => {
  const entry = (id: string, parentId: string | null, role: string, text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: "2026-11-20T10:00:00.000Z",
    message: { role, content: [{ type: "text", text }] },
  });
  const session = loadSession(
    jsonl([
      { type: "session", version: 3, id: "p", timestamp: "2026-11-20T10:00:00.000Z", cwd: "/w" },
      entry("e1", null, "user", "start"),
      entry("e2", "e1", "assistant", "abandoned path"),
      { type: "branch_summary", id: "e3", parentId: "e1", timestamp: "2026-11-20T10:00:00.000Z", fromId: "e2", summary: "tried the abandoned path" },
      entry("e4", "e3", "user", "go on"),
    ]),
  );

  it("records the summary of the abandoned branch as a compaction that adds it and drops nothing on this branch", () => {
    const [summary] = session.recordedCompactions(null);
    expect(summary!.kind).toBe("pi-branch-summary");
    expect(summary!.before.map((m) => m.id)).toEqual(["e1"]);
    expect(summary!.after.map((m) => m.id)).toEqual(["e1", "e3"]);
    expect(summary!.droppedMessageIds).toEqual([]);
    expect(summary!.summary).toBe("tried the abandoned path");
    expect(session.recordedContext(null).messages.map((m) => m.id)).toEqual(["e1", "e3", "e4"]);
    expect(session.recordedContext(null).compactions).toBe(0);
  });
});
