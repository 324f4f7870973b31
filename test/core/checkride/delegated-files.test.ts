/**
 * What a Claude Code subagent wrote is a modified file of the session: its
 * messages are recorded as `agent_progress` lines beside the branch
 * (core/formats/claude-progress.ts), each naming the call that started it.
 * A composed transcript: one subagent started on the branch, one started on
 * a branch the user left; a write of the first fails.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { delegatedWork, factOptions } from "../../../core/checkride/session.ts";
import { loadSession } from "../../../core/session.ts";
import { loadSessionFiles } from "../../../core/session-files.ts";
import { auditSession } from "../../../core/audit/session.ts";
import { CHARS_QUARTER } from "../../../core/tokens.ts";

const cwd = "/home/dev/site";
const base = { sessionId: "s1", cwd, version: "2.1.42", isSidechain: false, userType: "external" };
let clock = 0;
const at = () => new Date(Date.UTC(2026, 1, 16, 14, 0, clock++)).toISOString();
const line = (record: Record<string, unknown>) => JSON.stringify({ ...base, timestamp: at(), ...record });
const user = (uuid: string, parentUuid: string | null, content: unknown) => line({ type: "user", uuid, parentUuid, message: { role: "user", content } });
const assistant = (uuid: string, parentUuid: string, content: unknown[]) =>
  line({ type: "assistant", uuid, parentUuid, message: { id: `msg_${uuid}`, role: "assistant", model: "claude-opus-4-6", content } });
const task = (id: string) => ({ type: "tool_use", id, name: "Task", input: { description: "restyle", prompt: "Remove the dark classes." } });
const edit = (id: string, file: string) => ({ type: "tool_use", id, name: "Edit", input: { file_path: `${cwd}/${file}`, old_string: "a", new_string: "b" } });
/** A subagent's record streamed into the parent's transcript. */
const progress = (uuid: string, parentUuid: string, callId: string, record: Record<string, unknown>) =>
  line({
    type: "progress",
    uuid,
    parentUuid,
    parentToolUseID: callId,
    toolUseID: `agent_${uuid}`,
    data: { type: "agent_progress", agentId: "a1", prompt: "Remove the dark classes.", message: record },
  });
const subagentCall = (uuid: string, content: unknown[]) => ({ type: "assistant", uuid, timestamp: at(), message: { id: `msg_${uuid}`, role: "assistant", content } });
const subagentResult = (uuid: string, callId: string, text: string, isError = false) => ({
  type: "user",
  uuid,
  timestamp: at(),
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content: text, is_error: isError }] },
});

const file = [
  user("u1", null, "Remove dark mode from the site."),
  assistant("a1", "u1", [task("task-kept")]),
  progress("p1", "a1", "task-kept", subagentCall("s1", [edit("e1", "src/components/Header.astro")])),
  progress("p2", "p1", "task-kept", subagentResult("s2", "e1", "The file has been updated.")),
  progress("p3", "p2", "task-kept", subagentCall("s3", [edit("e2", "src/components/Footer.astro")])),
  progress("p4", "p3", "task-kept", subagentResult("s4", "e2", "<tool_use_error>String to replace not found in file.</tool_use_error>", true)),
  // The same subagent record streamed twice is one message.
  progress("p5", "p4", "task-kept", subagentCall("s1", [edit("e1", "src/components/Header.astro")])),
  user("r1", "p5", [{ type: "tool_result", tool_use_id: "task-kept", content: "Done: restyled src/components/Header.astro." }]),
  assistant("a2", "r1", [{ type: "text", text: "Dark mode is gone from the header." }]),
  // A branch the user left (a rewind from u1): its subagent's writes are not this branch's.
  assistant("x1", "u1", [task("task-left")]),
  progress("px", "x1", "task-left", subagentCall("sx", [edit("ex", "src/pages/left.astro")])),
  user("u2", "a2", "Thanks."),
  // Then the agent compacts: the summary does not name the file the subagent wrote.
  line({ type: "system", subtype: "compact_boundary", uuid: "b1", parentUuid: null, logicalParentUuid: "u2", compactMetadata: { trigger: "auto", preTokens: 90000 } }),
  line({ type: "user", uuid: "cs", parentUuid: "b1", isCompactSummary: true, message: { role: "user", content: "Summary: the user asked to remove dark mode; it was done." } }),
  user("u3", "cs", "Now check the footer."),
].join("\n");

describe("files a Claude Code subagent wrote", () => {
  const session = loadSession(new TextEncoder().encode(file));

  it("are read from its progress lines once each, each naming the call that started it", () => {
    const delegated = delegatedWork(session);
    expect(delegated.map((m) => [m.id, m.role, m.meta.delegatedBy])).toEqual([
      ["s1", "assistant", "task-kept"],
      ["s2", "toolResult", "task-kept"],
      ["s3", "assistant", "task-kept"],
      ["s4", "toolResult", "task-kept"],
      ["sx", "assistant", "task-left"],
    ]);
    // The branch is the conversation's alone.
    expect(session.branch(null).map((m) => m.id)).toEqual(["u1", "a1", "r1", "a2", "u2", "cs", "u3"]);
  });

  it("count as modified when the subagent's call is on the branch and the write did not fail, sourced at that call", () => {
    const facts = extractFacts(session.branch(null), factOptions(session, cwd));
    expect(facts.modifiedFiles).toEqual(["src/components/Header.astro"]);
    // One click from the call that started the subagent, naming the subagent and the line its write is recorded on.
    expect(facts.fileSources["src/components/Header.astro"]).toEqual({ messageId: "a1", line: 3, quote: `${cwd}/src/components/Header.astro`, role: "subagent" });
    // Without the delegated work, nothing was written.
    expect(extractFacts(session.branch(null), { cwd, format: "claude" }).modifiedFiles).toEqual([]);
  });

  it("reach the audit of a recorded compaction too: the file the subagent's answer named falls out when the summary does not name it", async () => {
    const [compaction] = (await auditSession(session, { sizeTokenizer: CHARS_QUARTER })).compactions;
    const fate = compaction!.factFates.find((f) => JSON.stringify(f).includes("src/components/Header.astro"));
    expect(fate).toMatchObject({ fate: "fell-out" });
  });
});

describe("files a subagent wrote in its own transcript beside the session", () => {
  const meta = { sessionId: "s2", cwd, version: "2.1.40", userType: "external" };
  const jsonl = (records: unknown[]) => new TextEncoder().encode(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const main = [
    { ...meta, type: "user", uuid: "u1", parentUuid: null, isSidechain: false, message: { role: "user", content: "Restyle the footer." } },
    { ...meta, type: "assistant", uuid: "a1", parentUuid: "u1", isSidechain: false, message: { id: "m1", role: "assistant", content: [task("toolu_task")] } },
    {
      ...meta,
      type: "user",
      uuid: "u2",
      parentUuid: "a1",
      isSidechain: false,
      toolUseResult: { status: "completed", agentId: "q1" },
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_task", content: "Done." }] },
    },
  ];
  const agent = [
    { ...meta, type: "user", uuid: "s-u1", parentUuid: null, isSidechain: true, agentId: "q1", message: { role: "user", content: "Restyle the footer." } },
    {
      ...meta,
      type: "assistant",
      uuid: "s-a1",
      parentUuid: "s-u1",
      isSidechain: true,
      agentId: "q1",
      message: { id: "ms1", role: "assistant", content: [edit("se1", "src/components/Footer.astro")] },
    },
    {
      ...meta,
      type: "user",
      uuid: "s-u2",
      parentUuid: "s-a1",
      isSidechain: true,
      agentId: "q1",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "se1", content: "The file has been updated." }] },
    },
  ];
  const session = loadSessionFiles([
    { name: "p/s2.jsonl", bytes: jsonl(main) },
    { name: "p/s2/subagents/agent-q1.jsonl", bytes: jsonl(agent) },
  ]);

  it("count as modified, sourced at the Task call the transcript hangs under; the main branch stays the conversation's", () => {
    expect(session.branch(null).map((m) => m.id)).toEqual(["u1", "a1", "u2"]);
    expect(delegatedWork(session).map((m) => [m.id, m.meta.delegatedBy])).toEqual([
      ["s-u1", "toolu_task"],
      ["s-a1", "toolu_task"],
      ["s-u2", "toolu_task"],
    ]);
    const facts = extractFacts(session.branch(null), factOptions(session, cwd));
    expect(facts.modifiedFiles).toEqual(["src/components/Footer.astro"]);
    expect(facts.fileSources["src/components/Footer.astro"]).toMatchObject({ messageId: "a1", role: "subagent" });
  });
});
