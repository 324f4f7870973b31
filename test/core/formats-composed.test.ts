/**
 * The new readers on composed sessions (test/helpers/composed-sessions.ts),
 * for shapes no licensed public file shows: each test names the real shape
 * its file stands for.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { loadSessionFiles } from "../../core/session-files.ts";
import { PRUNED_OUTPUT } from "../../core/formats/opencode.ts";
import { clineTask, composedBytes } from "../helpers/composed-sessions.ts";
import { modelView } from "../../core/model-view.ts";
import { humanTextOf } from "../../core/human-text.ts";
import { extractFacts } from "../../core/checkride/facts.ts";
import { sessionCwd } from "../../core/session-info.ts";
import { compactionsUnrecorded } from "../../core/compactions/unrecorded.ts";

const ids = (messages: Message[]) => messages.map((m) => m.id);
const texts = (message: Message) => message.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));

describe("Gemini CLI JSONL chat (stands for ~/.gemini/tmp/<project>/chats/session-*.jsonl)", () => {
  const session = loadSession(composedBytes.geminiJsonl(), { strict: true });

  it("is read as gemini JSONL with the last $set applied to the header", () => {
    expect(session.format).toBe("gemini");
    expect(session.formatVersion).toBe("jsonl");
    expect(session.header).toMatchObject({ sessionId: "s-composed-1", lastUpdated: "2026-01-02T10:00:04.000Z" });
  });

  it("an id written again replaces the message in place (last line wins); the result pairs with its call", () => {
    const branch = session.branch(null);
    const g1 = branch.find((m) => m.id === "g1")!;
    expect(texts(g1)).toEqual(["Reading the file first."]);
    expect(g1.blocks.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
    expect(g1.line).toBe(4); // the message is read from the line that won
    expect(session.byId.get("g1")!.line).toBe(3); // the entry keeps its place
    const result = branch.find((m) => m.id === "g1#r0")!;
    expect(result).toMatchObject({ role: "toolResult", meta: { toolCallId: "read_1", toolName: "read_file", isError: false } });
    expect(texts(result)).toEqual(["export const sum = (a: number[]) => 0;"]);
  });

  it("$rewindTo leaves the abandoned reply on its own branch; the default branch continues after the rewind", () => {
    expect(ids(session.branch(null))).toEqual(["u1", "g1", "g1#r0", "g2", "i1", "L8", "u2", "g4"]);
    expect(session.leaves).toContain("g3");
    expect(ids(session.branch("g3"))).toContain("g3");
    expect(session.offTreeRecords.$rewindTo).toBe(1);
  });

  it("$set.messages is a gemini-compression whose context starts with the <state_snapshot> turn", () => {
    const [compaction, ...more] = session.recordedCompactions(null);
    expect(more).toHaveLength(0);
    expect(compaction).toMatchObject({ index: 1, line: 8, entryId: "L8", kind: "gemini-compression", tokensBefore: null });
    expect(compaction!.summary).toContain("<state_snapshot>");
    expect(ids(compaction!.before)).toEqual(["u1", "g1", "g1#r0", "g2"]); // the info line never reached the model
    expect(ids(compaction!.after)).toEqual(["L8.r0", "L8.r1"]);
    expect(compaction!.after[0]!.role).toBe("summary");
    expect(compaction!.droppedMessageIds).toEqual(["u1", "g1", "g1#r0", "g2"]);
    const recorded = session.recordedContext(null);
    expect(ids(recorded.messages)).toEqual(["L8.r0", "L8.r1", "u2", "g4"]);
    expect(recorded.droppedMessageIds).toEqual(["u1", "g1", "g1#r0", "g2", "i1", "L8"]);
  });

  it("tokens are the usage series (input less cached; output with thoughts)", () => {
    expect(session.usage(null).turns).toEqual([
      { line: 3, messageId: "g1", input: 1000, output: 50, cacheRead: 200, cacheWrite: 0, contextTokens: 1200 },
      { line: 6, messageId: "g2", input: 500, output: 20, cacheRead: 1000, cacheWrite: 0, contextTokens: 1500 },
      { line: 12, messageId: "g4", input: 310, output: 12, cacheRead: 0, cacheWrite: 0, contextTokens: 310 },
    ]);
  });
});

describe("Gemini CLI JSONL whose history is written again (new chat, a writer starting over, a resume)", () => {
  const session = loadSession(composedBytes.geminiRestarts(), { strict: true });

  it("reads the header written again as a header (no warning; the first startTime stays) and lists where the history was set again", () => {
    expect(session.warnings).toEqual([]);
    expect(session.header).toMatchObject({ sessionId: "s-composed-2", startTime: "2026-02-01T09:00:00.000Z", lastUpdated: "2026-02-01T10:00:00.000Z", $restartLines: [2, 6, 13] });
  });

  it("only the list with a new <state_snapshot> is a compression: a restart or a resume of the same list is none", () => {
    const compactions = session.recordedCompactions(null);
    expect(compactions.map((c) => [c.line, c.kind])).toEqual([[10, "gemini-compression"]]);
    const [compression] = compactions;
    // Before it: the context as restarted at line 6, not the whole file.
    expect(ids(compression!.before)).toEqual(["ctx", "u2", "g2"]);
    expect(compression!.after.map((m) => m.role)).toEqual(["user", "summary", "assistant", "user"]);
    // The context turn and the kept turn, written again under new ids, were kept.
    expect(compression!.droppedMessageIds).toEqual(["g2"]);
    expect(session.recordedContext(null).compactions).toBe(1);
  });

  it("the context the agent sends at the end: the resumed list (the messages already read) and what followed", () => {
    const recorded = session.recordedContext(null);
    expect(recorded.messages.map((m) => m.meta.id)).toEqual(["ctx", "snap", "ack", "k1", "u3", "g3", "u4"]);
    expect(ids(recorded.messages).slice(-3)).toEqual(["u3", "g3", "u4"]);
    expect(recorded.droppedMessageIds).toEqual(expect.arrayContaining(["u1", "g1", "u2", "g2"]));
    // The first chat's messages stay on the branch, shown in the original.
    expect(ids(session.branch(null))).toEqual(expect.arrayContaining(["ctx", "u1", "g1", "u2", "g2", "u3", "g3", "u4"]));
  });

  it("turns are read once each, from the messages as they stand", () => {
    expect(session.usage(null).turns.map((t) => [t.messageId, t.contextTokens])).toEqual([
      ["g1", 900],
      ["g2", 950],
      ["g3", 400],
    ]);
  });
});

describe("Cline task folder (stands for …/tasks/<taskId>/ with its three files)", () => {
  const session = loadSessionFiles(clineTask(), { strict: true });

  it("reads the history as Anthropic messages with m<index> ids, calls paired", () => {
    expect(session.format).toBe("cline");
    expect(session.branch(null).map((m) => `${m.id}:${m.role}`)).toEqual(["m0:user", "m1:assistant", "m2:toolResult", "m3:assistant", "m4:toolResult", "m5:assistant"]);
    expect([...session.toolCallIds]).toEqual(["t1", "t2"]);
    expect(session.header).toMatchObject({ uiMessages: 4, taskMetadata: { files_in_context: [{ path: "src/args.ts" }] } });
  });

  it("a new conversationHistoryDeletedRange is a cline-truncation after the index it names", () => {
    const [truncation, ...more] = session.recordedCompactions(null);
    expect(more).toHaveLength(0);
    expect(truncation).toMatchObject({ kind: "cline-truncation", entryId: "m4", line: 5, summary: null, droppedMessageIds: ["m1", "m2"] });
    expect(ids(session.recordedContext(null).messages)).toEqual(["m0", "m3", "m4", "m5"]);
  });

  it("api_req_started rows are the usage series", () => {
    expect(session.usage(null).turns.map((t) => [t.line, t.input, t.output, t.cacheRead, t.cacheWrite, t.contextTokens])).toEqual([
      [2, 900, 50, 0, 100, 1000],
      [3, 30, 60, 1000, 20, 1050],
      [4, 20, 30, 500, 0, 520],
    ]);
  });

  it("a lone api_conversation_history.json still loads (by name, or by Cline's <task> wrapper)", () => {
    const [history] = clineTask();
    expect(loadSessionFiles([history!]).format).toBe("cline");
    expect(loadSession(history!.bytes).format).toBe("cline");
  });

  it("several files that are not a task folder are refused, naming them", () => {
    const file = { name: "a.json", bytes: new TextEncoder().encode("[]") };
    expect(() => loadSessionFiles([file, { ...file, name: "b.jsonl" }])).toThrow(/a\.json, b\.jsonl.*api_conversation_history\.json/);
  });
});

describe("Roo Code / Kilo Code history after a condensation and a truncation (non-destructive markers)", () => {
  const session = loadSession(composedBytes.rooHistory(), { strict: true });

  it("keeps every message on the branch, the summary as a summary", () => {
    expect(session.format).toBe("cline");
    expect(session.branch(null).map((m) => `${m.id}:${m.role}`)).toEqual(["m0:user", "m1:assistant", "m2:toolResult", "m3:summary", "m4:assistant", "m5:user", "m6:assistant"]);
  });

  it("condenseParent messages leave at the roo-condense, truncationParent ones at the roo-truncation", () => {
    const compactions = session.recordedCompactions(null);
    expect(compactions.map((c) => [c.kind, c.entryId, c.droppedMessageIds])).toEqual([
      ["roo-condense", "m3", ["m0", "m1", "m2"]],
      ["roo-truncation", "m5", ["m4"]],
    ]);
    expect(compactions[0]!.summary).toMatch(/^Summary: the loader parses JSON/);
    expect(ids(compactions[1]!.before)).toEqual(["m3", "m4"]);
    expect(ids(session.recordedContext(null).messages)).toEqual(["m3", "m5", "m6"]);
  });
});

describe("an older Roo Code task whose condense overwrote its history (a summary with isSummary and no condenseId)", () => {
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const summary = "1. Previous Conversation: the loader was moved to src/config.ts.";
  const history = [
    { role: "user", ts: 1, content: [{ type: "text", text: "<task>\nMove the loader.\n</task>" }] },
    { role: "assistant", ts: 5, isSummary: true, content: [{ type: "text", text: summary }] },
    { role: "user", ts: 6, content: [{ type: "text", text: "<feedback>\nNow the tests.\n</feedback>" }] },
    { role: "assistant", ts: 7, content: [{ type: "text", text: "Adding them." }] },
  ];
  const ui = [
    { ts: 2, type: "say", say: "condense_context", contextCondense: { summary: "an earlier summary", prevContextTokens: 90000, newContextTokens: 30000, cost: 0.1 } },
    { ts: 4, type: "say", say: "condense_context", contextCondense: { summary, prevContextTokens: 151255, newContextTokens: 73723, cost: 0.13 } },
  ];
  const session = loadSessionFiles([
    { name: "t/api_conversation_history.json", bytes: encode(history) },
    { name: "t/ui_messages.json", bytes: encode(ui) },
  ]);

  it("is a roo-condense with the UI log's figures for the same summary; before is what the file still holds", () => {
    const [condense, ...more] = session.recordedCompactions(null);
    expect(more).toEqual([]);
    expect(condense).toMatchObject({ kind: "roo-condense", line: 2, entryId: "m1", tokensBefore: 151255, tokensAfter: 73723, summary, droppedMessageIds: [] });
    expect(ids(condense!.before)).toEqual(["m0"]);
    expect(ids(condense!.after)).toEqual(["m0", "m1"]);
  });

  it("says plainly that the messages it replaced are not in the file, and how many condenses the UI log records", () => {
    expect(session.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/history before the condense summary at message 1 was overwritten .* ui_messages\.json records 2 condenses, the history keeps the last summary of 1/),
    ]);
  });
});

describe("OpenCode export with a pruned tool output (stands for state.time.compacted on an old tool part)", () => {
  const session = loadSession(composedBytes.openCodePruned(), { strict: true });

  it("splits the assistant message by step; the pruned output stays on the branch", () => {
    expect(session.branch(null).map((m) => `${m.id}:${m.role}`)).toEqual(["msg_1:user", "msg_2:assistant", "prt_msg_2_2:toolResult", "msg_2#s1:assistant", "msg_3:user"]);
    const result = session.branch(null)[2]!;
    expect(texts(result)).toEqual(["a.txt\nb.txt"]);
    expect(result.meta).toMatchObject({ toolCallId: "call_1", toolName: "bash", prunedAt: 5000 });
  });

  it("the prune is an opencode-prune before the next message, and the model is sent the placeholder", () => {
    const [prune, ...more] = session.recordedCompactions(null);
    expect(more).toHaveLength(0);
    expect(prune).toMatchObject({ kind: "opencode-prune", entryId: "msg_3", droppedMessageIds: ["prt_msg_2_2"], timestamp: new Date(5000).toISOString() });
    const recorded = session.recordedContext(null);
    // The placeholder is its own message (the output it stands for, dropped, keeps its id).
    expect(ids(recorded.messages)).toEqual(["msg_1", "msg_2", "prt_msg_2_2~pruned", "msg_2#s1", "msg_3"]);
    expect(texts(recorded.messages[2]!)).toEqual([PRUNED_OUTPUT]);
    expect(recorded.droppedMessageIds).toEqual(["prt_msg_2_2"]);
  });

  it("each step-finish is one usage turn", () => {
    expect(session.usage(null).turns.map((t) => [t.messageId, t.input, t.output, t.cacheRead, t.contextTokens])).toEqual([
      ["msg_2", 100, 30, 0, 100],
      ["msg_2#s1", 20, 10, 120, 140],
    ]);
  });
});

describe("OpenCode synthetic parts (the text OpenCode adds when a file is attached with @)", () => {
  it("become their own user message marked synthetic, so user-written facts never come from them", () => {
    const file = JSON.stringify({
      info: { id: "ses_s", version: "1.4.3" },
      messages: [
        {
          info: { id: "msg_u", role: "user", time: { created: 1 } },
          parts: [
            { id: "p1", type: "text", text: "Fix the bug in @src/a.ts" },
            { id: "p2", type: "file", mime: "text/plain", filename: "src/a.ts", url: "file:///w/src/a.ts" },
            { id: "p3", type: "text", synthetic: true, text: 'Called the Read tool with the following input: {"filePath":"src/a.ts"}' },
            { id: "p4", type: "text", synthetic: true, text: "1: export const a = 1;" },
          ],
        },
      ],
    });
    const branch = loadSession(file).branch(null);
    expect(branch.map((m) => [m.id, m.role, m.meta.synthetic ?? false, m.blocks.map((b) => b.type)])).toEqual([
      ["msg_u", "user", false, ["text", "raw"]],
      ["msg_u#u1", "user", true, ["text", "text"]],
    ]);
  });
});

/**
 * A Claude Code session with one subagent (stands for `<sessionId>.jsonl` plus
 * `<sessionId>/subagents/agent-<id>.jsonl` and its `.meta.json`, Claude Code 2.1.x).
 */
describe("Claude Code session + subagent files", () => {
  const base = { sessionId: "s1", version: "2.1.40", cwd: "/w", userType: "external" };
  const main = [
    { ...base, type: "user", uuid: "u1", parentUuid: null, isSidechain: false, message: { role: "user", content: "Find every TODO in src/." } },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      isSidechain: false,
      message: {
        id: "msg_1",
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_task", name: "Task", input: { description: "find TODOs", prompt: "Search src/ for TODO." } }],
      },
    },
    {
      ...base,
      type: "user",
      uuid: "u2",
      parentUuid: "a1",
      isSidechain: false,
      toolUseResult: { status: "completed", agentId: "abc123" },
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_task", content: "Two TODOs: src/a.ts:3, src/b.ts:9." }] },
    },
    {
      ...base,
      type: "assistant",
      uuid: "a2",
      parentUuid: "u2",
      isSidechain: false,
      message: { id: "msg_2", role: "assistant", content: [{ type: "text", text: "There are two TODOs." }] },
    },
  ];
  const agent = [
    { ...base, type: "user", uuid: "s-u1", parentUuid: null, isSidechain: true, agentId: "abc123", message: { role: "user", content: "Search src/ for TODO." } },
    {
      ...base,
      type: "assistant",
      uuid: "s-a1",
      parentUuid: "s-u1",
      isSidechain: true,
      agentId: "abc123",
      message: { id: "msg_s1", role: "assistant", content: [{ type: "text", text: "Found src/a.ts:3 and src/b.ts:9." }] },
    },
  ];
  const encode = (text: string) => new TextEncoder().encode(text);
  const jsonl = (records: unknown[]) => encode(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const session = loadSessionFiles(
    [
      { name: "project/s1.jsonl", bytes: jsonl(main) },
      { name: "project/s1/subagents/agent-abc123.jsonl", bytes: jsonl(agent) },
      { name: "project/s1/subagents/agent-abc123.meta.json", bytes: encode(JSON.stringify({ agentType: "general-purpose", description: "find TODOs" })) },
    ],
    { strict: true },
  );

  it("the main branch is unchanged; the subagent's branch opens from the Task call", () => {
    expect(ids(session.branch(null))).toEqual(["u1", "a1", "u2", "a2"]);
    expect(session.leaves).toContain("s-a1");
    // The Task call's own result comes along, as every result of a call on a Claude Code branch does.
    expect(ids(session.branch("s-a1"))).toEqual(["u1", "a1", "u2", "s-u1", "s-a1"]);
    expect(session.byId.get("s-u1")).toMatchObject({ parentId: "a1", sidechain: true, line: 5, data: { subagentMeta: { agentType: "general-purpose" } } });
  });

  it("subagent files without their session are refused, naming what is missing", () => {
    expect(() =>
      loadSessionFiles([
        { name: "agent-abc123.jsonl", bytes: jsonl(agent) },
        { name: "agent-x.jsonl", bytes: jsonl(agent) },
      ]),
    ).toThrow(/exactly one Claude Code session file beside them \(found 0: none\)/);
  });
});

describe("Gemini CLI JSONL whose header line already holds messages", () => {
  it("reads those messages first, at line 1", () => {
    const text = [
      JSON.stringify({ sessionId: "s2", projectHash: "p", startTime: "t", lastUpdated: "t", messages: [{ id: "u0", timestamp: "t", type: "user", content: "Hi." }] }),
      JSON.stringify({ id: "g0", timestamp: "t", type: "gemini", content: "Hello." }),
    ].join("\n");
    const session = loadSession(text, { strict: true });
    expect(session.branch(null).map((m) => [m.id, m.role, m.line])).toEqual([
      ["u0", "user", 1],
      ["g0", "assistant", 2],
    ]);
  });
});

describe("the new JSONL readers stream like the others", () => {
  it("a Gemini JSONL chat pushed in 1-, 5- and 64-byte slices loads record by record as when read whole", async () => {
    const { StreamingSessionLoader } = await import("../../core/session-stream.ts");
    const bytes = composedBytes.geminiJsonl();
    const whole = loadSession(bytes);
    for (const size of [1, 5, 64]) {
      const loader = new StreamingSessionLoader();
      for (let at = 0; at < bytes.length; at += size) loader.push(bytes.subarray(at, at + size));
      const session = loader.finish(bytes);
      expect(loader.streamed).toBe(true);
      expect(session.branch(null)).toEqual(whole.branch(null));
      expect(session.recordedCompactions(null)).toEqual(whole.recordedCompactions(null));
    }
  });
});

describe("Copilot CLI shapes the real file lacks (stands for events.jsonl of other Copilot CLI 1.x runs)", () => {
  let previous: string | null = null;
  let n = 0;
  const event = (type: string, data: Record<string, unknown>) => {
    const id = `e${++n}`;
    const record = { type, data, id, timestamp: `2026-03-01T00:00:0${n % 10}Z`, parentId: previous };
    previous = id;
    return JSON.stringify(record);
  };
  const text = [
    event("session.start", { sessionId: "s", copilotVersion: "1.0.80", context: { cwd: "/w" } }),
    event("user.message", { content: "Tidy the imports." }),
    event("assistant.reasoning", { reasoningId: "r1", content: "Only src/ has unused imports." }),
    event("assistant.message", { messageId: "m1", content: "Done.", toolRequests: [], outputTokens: 12 }),
    event("mcp.server_started", { name: "files" }),
    event("session.compaction_start", { systemTokens: 10, conversationTokens: 20, toolDefinitionsTokens: 5 }),
    event("session.compaction_complete", { success: false, error: "the summary request failed" }),
  ].join("\n");
  const session = loadSession(text, { strict: true });

  it("reasoning events are thinking, an event of a newer family is kept as an entry, nothing is warned", () => {
    expect(session.branch(null).map((m) => [m.id, m.role, m.blocks.map((b) => b.type).join()])).toEqual([
      ["e2", "user", "text"],
      ["e3", "assistant", "thinking"],
      ["e4", "assistant", "text"],
    ]);
    expect(session.byId.get("e5")).toMatchObject({ type: "mcp.server_started", messages: [] });
    expect(session.warnings).toEqual([]);
  });

  it("a failed compaction changes nothing the model sees", () => {
    expect(session.recordedCompactions(null)).toEqual([]);
    expect(session.recordedContext(null).messages.map((m) => m.id)).toEqual(["e2", "e3", "e4"]);
  });
});

describe("Aider chat history (stands for .aider.chat.history.md)", () => {
  const text = new TextDecoder().decode(composedBytes.aiderHistory());
  const session = loadSession(composedBytes.aiderHistory(), { strict: true });
  // Independent counts of the raw file, not the reader's code: headings, runs of "#### " lines, runs of "> " lines.
  const runs = text.match(/^# aider chat started at /gm)!.length;
  const userBlocks = text.split("\n").filter((line, i, all) => line.startsWith("####") && !all[i - 1]?.startsWith("####")).length;

  it("is read as aider, each run a branch of its own, the newest the default", () => {
    expect(session.format).toBe("aider");
    expect(session.leaves.length).toBe(runs);
    const last = session.branch(session.defaultLeafId);
    expect(texts(last[0]!)).toEqual(["aider chat started at 2026-03-02 14:30:00"]);
    const all = session.leaves.flatMap((leaf) => session.branch(leaf));
    expect(all.filter((m) => m.role === "user").length).toBe(userBlocks);
  });

  it("the user's lines, the console and the reply (with its thinking) come apart; the console never reaches the model", () => {
    const first = session.branch(session.leaves.find((leaf) => leaf !== session.defaultLeafId)!);
    const user = first.find((m) => m.role === "user")!;
    expect(texts(user)).toEqual(["Add a fib function to src/fib.py.\nNever use recursion in this repo."]);
    const reply = first.find((m) => m.role === "assistant")!;
    expect(reply.blocks.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(texts(reply)[0]).toMatch(/^Here is an iterative version\.\n\nsrc\/fib\.py\n```python\n<<<<<<< SEARCH/);
    const console = first.filter((m) => m.meta.aider === "console");
    expect(console.map((m) => texts(m)[0]!.split("\n")[0])).toEqual(["Aider v0.86.2", "Tokens: 1.9k sent, 120 received. Cost: $0.01 message, $0.01 session."]);
    expect(
      modelView(first, "aider")
        .filter((v) => v.segments.length === 0)
        .map((v) => v.messageId),
    ).toEqual(first.filter((m) => m.meta.aiderConsole).map((m) => m.id));
  });

  it("the token lines are the file's usage, as rounded as Aider prints them; no compaction is recorded", () => {
    const turns = session.usage(session.defaultLeafId).turns;
    expect(turns).toEqual([expect.objectContaining({ input: 2300, cacheRead: 1200, output: 15, contextTokens: 2300 })]);
    expect(session.usage(session.defaultLeafId).notes.join(" ")).toMatch(/rounded/);
    expect(session.recordedCompactions(session.defaultLeafId)).toEqual([]);
  });
});

describe("Cline's text-block tool results (stands for a newer Cline api_conversation_history.json)", () => {
  const session = loadSession(composedBytes.clineTextResults(), { strict: true });
  const branch = session.branch(session.defaultLeafId);

  it("each '[tool for …] Result:' block is a tool result paired with its call, in order; the rest stays the user's message", () => {
    expect(branch.map((m) => [m.id, m.role, m.meta.toolCallId ?? null])).toEqual([
      ["m0", "user", null],
      ["m1", "assistant", null],
      ["m2#0", "toolResult", "tu_1"],
      ["m2#1", "toolResult", "tu_2"],
      ["m2#2", "user", null],
    ]);
    expect(session.header).toMatchObject({ cwd: "/home/dev/app" });
  });

  it("only the words inside <task> and <feedback> are the human's; the file written is relative to the working directory", () => {
    expect(branch.map((m) => humanTextOf(m, "cline")).filter(Boolean)).toEqual([
      "Move the config loader to src/config.ts. Never commit secrets.",
      "Also keep the old path working.",
    ]);
    const facts = extractFacts(branch, { cwd: sessionCwd(session), format: "cline" });
    expect(facts.modifiedFiles).toEqual(["src/config.ts"]);
    expect(facts.readFiles).toEqual(["src/index.ts"]);
    expect([...facts.rules, ...facts.ruleCandidates].map((r) => r.text)).toEqual(["Never commit secrets."]);
  });
});

describe("Qwen Code chat (stands for ~/.qwen/…/chats/<sessionId>.jsonl)", () => {
  const text = new TextDecoder().decode(composedBytes.qwenChat());
  const session = loadSession(composedBytes.qwenChat(), { strict: true });
  // Independent counts of the raw lines.
  const records = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; subtype?: string });
  const compressions = records.filter((r) => r.subtype === "chat_compression").length;
  const replies = records.filter((r) => r.type === "assistant").length;

  it("is read as qwen, never as Claude Code (both chain records by uuid)", () => {
    expect(session.format).toBe("qwen");
    expect(session.header).toMatchObject({ sessionId: "q-composed-1", cwd: "/home/dev/calc" });
  });

  it("Gemini Content becomes thinking, tool calls and their results; bookkeeping records are no messages", () => {
    const branch = session.branch(session.defaultLeafId);
    expect(branch.map((m) => [m.id, m.role])).toEqual([
      ["r1", "user"],
      ["r2", "assistant"],
      ["r3", "toolResult"],
      ["r6", "user"],
      ["r7", "assistant"],
    ]);
    expect(branch[1]!.blocks.map((b) => b.type)).toEqual(["thinking", "toolCall"]);
    expect(branch[2]!.meta).toMatchObject({ toolCallId: "call_1", toolName: "read_file", isError: false });
  });

  it("the compression record is a compaction with the file's figures; after it the model sees the compressed history and what follows", () => {
    const compactions = session.recordedCompactions(session.defaultLeafId);
    expect(compactions.length).toBe(compressions);
    expect(compactions[0]).toMatchObject({ kind: "qwen-compression", tokensBefore: 9000, tokensAfter: 1500, line: 5 });
    expect(compactions[0]!.summary).toMatch(/^<state_snapshot>The user wants mean\(\)/);
    expect(compactions[0]!.droppedMessageIds).toEqual(["r1", "r2", "r3"]);
    expect(session.recordedContext(session.defaultLeafId).messages.map((m) => m.id)).toEqual(["r5#c0", "r5#c1", "r6", "r7"]);
  });

  it("a tool result recorded only as the UI's toolCallResult (no API message) is still the call's result", () => {
    const line = (record: Record<string, unknown>) => JSON.stringify({ sessionId: "q2", timestamp: "2026-02-01T10:00:00Z", cwd: "/w", version: "0.9.0", ...record });
    const file = [
      line({ uuid: "u1", parentUuid: null, type: "user", message: { role: "user", parts: [{ text: "Run the tests." }] } }),
      line({
        uuid: "a1",
        parentUuid: "u1",
        type: "assistant",
        message: { role: "model", parts: [{ functionCall: { id: "c1", name: "run_shell_command", args: { command: "make test" } } }] },
      }),
      line({ uuid: "t1", parentUuid: "a1", type: "tool_result", toolCallResult: { callId: "c1", name: "run_shell_command", result: "ok 3 passed", status: "success" } }),
    ].join("\n");
    const read = loadSession(new TextEncoder().encode(file), { strict: true });
    expect(read.format).toBe("qwen");
    const result = read.branch(read.defaultLeafId).at(-1)!;
    expect(result).toMatchObject({ role: "toolResult", meta: { toolCallId: "c1", isError: false } });
    expect(texts(result)).toEqual(["ok 3 passed"]);
  });

  it("each reply's usageMetadata is a turn of the file's usage, with the window it states", () => {
    const usage = session.usage(session.defaultLeafId);
    expect(usage.turns.length).toBe(replies);
    expect(usage.turns[0]).toMatchObject({ input: 1000, cacheRead: 200, output: 80, contextTokens: 1200 });
    expect(usage.contextWindow).toBe(131072);
  });
});

describe("Cursor agent transcript (stands for ~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl)", () => {
  const text = new TextDecoder().decode(composedBytes.cursorTranscript());
  const session = loadSession(composedBytes.cursorTranscript(), { strict: true });
  const branch = session.branch(session.defaultLeafId);
  // Independent counts of the raw lines.
  const raw = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { role?: string; message?: { content: unknown } });
  const calls = raw.flatMap((r) => (Array.isArray(r.message?.content) ? (r.message!.content as { type: string }[]) : [])).filter((b) => b.type === "tool_use").length;

  it("is read as cursor; messages are named by their line; a result without the call's id answers its turn's open call", () => {
    expect(session.format).toBe("cursor");
    expect(branch.map((m) => [m.id, m.role, m.meta.toolCallId ?? null])).toEqual([
      ["L1", "user", null],
      ["L2", "assistant", null],
      ["L3", "toolResult", "L2#call1"],
      ["L4", "assistant", null],
      ["L5", "toolResult", "L4#call0"],
      ["L6", "assistant", null],
    ]);
    expect(branch.flatMap((m) => m.blocks).filter((b) => b.type === "toolCall").length).toBe(calls);
    expect(session.offTreeRecords).toEqual({ "turn-end": 1 });
  });

  it("only the words in <user_query> are the user's; the edit is a modified file; no compaction recorded, and said", () => {
    expect(humanTextOf(branch[0]!, "cursor")).toBe("Rename add to sum in src/a.ts. Never touch the tests.");
    const facts = extractFacts(branch, { format: "cursor" });
    expect(facts.modifiedFiles).toEqual(["src/a.ts"]);
    expect([...facts.rules, ...facts.ruleCandidates].map((r) => r.text)).toEqual(["Never touch the tests."]);
    expect(session.recordedCompactions(session.defaultLeafId)).toEqual([]);
    expect(compactionsUnrecorded({ format: "cursor", header: undefined })).toMatch(/writes nothing of it here/);
  });
});
