/**
 * Claude Code's queued commands: what the user typed while the agent worked,
 * recorded as `attachment` lines (shape as real files write them, composed
 * here in our own words). They are the user's messages, on the branch where
 * they arrived; a queued bash command is not.
 */
import { describe, expect, it } from "vitest";
import { humanTextOf } from "../../core/human-text.ts";
import { extractFacts } from "../../core/checkride/facts.ts";
import { loadSession } from "../../core/session.ts";

const base = { sessionId: "s1", cwd: "/home/dev/site", version: "2.1.90", isSidechain: false, userType: "external" };
const lines = [
  { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: "2026-07-29T04:50:00.000Z", message: { role: "user", content: "Restyle the docs index page." } },
  {
    ...base,
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    timestamp: "2026-07-29T04:51:00.000Z",
    message: { id: "msg_1", role: "assistant", model: "claude-x", content: [{ type: "text", text: "Working on it." }], usage: { input_tokens: 10, output_tokens: 5 } },
  },
  {
    ...base,
    type: "attachment",
    uuid: "q1",
    parentUuid: "a1",
    timestamp: "2026-07-29T04:52:00.000Z",
    attachment: { type: "queued_command", prompt: "Never add a table of contents to generated pages.", commandMode: "prompt", origin: { kind: "human" }, source_uuid: "x1" },
  },
  {
    ...base,
    type: "attachment",
    uuid: "q2",
    parentUuid: "q1",
    timestamp: "2026-07-29T04:53:00.000Z",
    attachment: { type: "queued_command", prompt: "ls docs", commandMode: "bash", origin: { kind: "human" } },
  },
  { ...base, type: "user", uuid: "u2", parentUuid: "q2", timestamp: "2026-07-29T04:54:00.000Z", message: { role: "user", content: "Thanks, commit it." } },
];
const session = loadSession(new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"));

describe("Claude Code queued commands", () => {
  it("a queued prompt is the user's message on the branch; a queued bash command is not", () => {
    const branch = session.branch(session.defaultLeafId);
    expect(branch.map((m) => [m.id, m.role])).toEqual([
      ["u1", "user"],
      ["a1", "assistant"],
      ["q1", "user"],
      ["u2", "user"],
    ]);
    const queued = branch.find((m) => m.id === "q1")!;
    expect(queued.meta.queuedCommand).toMatchObject({ type: "queued_command", commandMode: "prompt" });
    expect(humanTextOf(queued, "claude")).toBe("Never add a table of contents to generated pages.");
  });

  it("its rules are the user's rules", () => {
    const facts = extractFacts(session.branch(session.defaultLeafId), { format: "claude" });
    // Said once, the rule is a candidate (graded once accepted, or said again): the user's words all the same.
    expect([...facts.rules, ...facts.ruleCandidates].map((r) => [r.messageId, r.text])).toEqual([["q1", "Never add a table of contents to generated pages."]]);
  });
});
