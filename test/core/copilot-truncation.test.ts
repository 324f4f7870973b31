/**
 * Copilot CLI `session.truncation`: the window overflowed and the oldest
 * messages were dropped without a summary. The event's fields are the Copilot
 * SDK's published schema (tokenLimit, pre/postTruncationTokensInMessages,
 * pre/postTruncationMessagesLength, tokens/messagesRemovedDuringTruncation,
 * performedBy). No licensed public events.jsonl has one (the real fixture
 * has a compaction, no truncation), so the session here is composed.
 */
import { describe, expect, it } from "vitest";
import { loadSession } from "../../core/session.ts";
import { allFixtures, readFixture } from "../helpers/fixtures.ts";

let clock = 0;
let previous: string | null = null;
function event(id: string, type: string, data: Record<string, unknown>) {
  const record = { type, id, parentId: previous, timestamp: `2026-11-02T10:00:${String(clock++).padStart(2, "0")}.000Z`, data };
  previous = id;
  return record;
}
const truncation = (removed: number) => ({
  tokenLimit: 128_000,
  preTruncationTokensInMessages: 131_500,
  preTruncationMessagesLength: 7,
  postTruncationTokensInMessages: 96_000,
  postTruncationMessagesLength: 7 - removed,
  tokensRemovedDuringTruncation: 35_500,
  messagesRemovedDuringTruncation: removed,
  performedBy: "BasicTruncator",
});

const events = [
  event("e0", "session.start", { sessionId: "s1", copilotVersion: "1.0.80", context: { cwd: "/w" } }),
  event("e1", "system.message", { content: "You are the Copilot CLI.", role: "system" }),
  event("e2", "user.message", { content: "Dump the logs." }),
  event("e3", "assistant.message", { messageId: "m1", content: "", toolRequests: [{ toolCallId: "t1", name: "bash", arguments: { command: "cat big.log" } }], outputTokens: 20 }),
  event("e4", "tool.execution_start", { toolCallId: "t1", toolName: "bash", arguments: { command: "cat big.log" } }),
  event("e5", "tool.execution_complete", { toolCallId: "t1", success: true, result: { content: "…a very long log…" } }),
  event("e6", "assistant.message", { messageId: "m2", content: "The log ends in a timeout.", outputTokens: 9 }),
  event("e7", "user.message", { content: "Why?" }),
  event("e8", "session.truncation", truncation(3)),
  event("e9", "assistant.message", { messageId: "m3", content: "The server was down.", outputTokens: 7 }),
  event("e10", "session.truncation", { ...truncation(0), tokensRemovedDuringTruncation: 0 }),
  event("e11", "user.message", { content: "Thanks." }),
];
const text = events.map((e) => JSON.stringify(e)).join("\n") + "\n";

describe("Copilot CLI session.truncation (composed events.jsonl)", () => {
  const session = loadSession(text, { strict: true });
  const compactions = session.recordedCompactions(null);

  it("is a recorded compaction with the figures the event states and no summary; one that removed nothing is not", () => {
    expect(session.format).toBe("copilot");
    expect(compactions.map((c) => [c.index, c.kind, c.entryId, c.line, c.trigger, c.tokensBefore, c.tokensAfter, c.summary])).toEqual([
      [1, "copilot-truncation", "e8", 9, null, 131_500, 96_000, null],
    ]);
    expect(compactions[0]!.timestamp).toBe(events[8]!.timestamp);
  });

  it("drops the oldest messages it counts, keeping the system prompt ahead of the rest", () => {
    const [step] = compactions;
    expect(step!.before.map((m) => m.id)).toEqual(["e1", "e2", "e3", "e5", "e6", "e7"]);
    expect(step!.droppedMessageIds).toEqual(["e2", "e3", "e5"]);
    expect(step!.after.map((m) => m.id)).toEqual(["e1", "e6", "e7"]);
  });

  it("the recorded context is the truncated one plus what followed; the dropped messages stay on the branch", () => {
    const recorded = session.recordedContext(null);
    expect(recorded.messages.map((m) => m.id)).toEqual(["e1", "e6", "e7", "e9", "e11"]);
    expect(recorded.droppedMessageIds).toEqual(["e2", "e3", "e5"]);
    expect(recorded.compactions).toBe(1);
    expect(session.branch(null).map((m) => m.id)).toEqual(["e1", "e2", "e3", "e5", "e6", "e7", "e9", "e11"]);
  });
});

describe.each(allFixtures().filter((f) => f.startsWith("copilot/")))("real Copilot CLI file %s", (relative) => {
  it("has as many truncation compactions as session.truncation events that removed messages", () => {
    const raw = new TextDecoder()
      .decode(readFixture(relative))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { type: string; data: { messagesRemovedDuringTruncation?: number } });
    const expected = raw.filter((e) => e.type === "session.truncation" && (e.data.messagesRemovedDuringTruncation ?? 0) > 0).length;
    const kinds = loadSession(readFixture(relative))
      .recordedCompactions(null)
      .map((c) => c.kind);
    expect(kinds.filter((k) => k === "copilot-truncation")).toHaveLength(expected);
    expect(kinds).toContain("copilot-compaction"); // the file's own compaction is still found beside it
  });
});
