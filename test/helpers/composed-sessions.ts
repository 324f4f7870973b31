/**
 * Small sessions composed for this project, in our own words, for shapes no
 * licensed public file shows. Each says which real shape it stands for
 * (from ../shared/FORMATS.md).
 */

const encode = (text: string) => new TextEncoder().encode(text);
const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

/**
 * Gemini CLI JSONL chat (`~/.gemini/tmp/<project>/chats/session-*.jsonl`):
 * header on line 1; a message updated by writing its id again (last line
 * wins); a `$set` of header fields; a compression persisted as
 * `$set.messages` whose new history opens with a `<state_snapshot>` user
 * turn; a `$rewindTo` that abandons the last exchange.
 */
export function geminiJsonl(): string {
  return lines([
    { sessionId: "s-composed-1", projectHash: "p0", startTime: "2026-01-02T10:00:00.000Z", lastUpdated: "2026-01-02T10:00:00.000Z", kind: "main" },
    { id: "u1", timestamp: "2026-01-02T10:00:01.000Z", type: "user", content: [{ text: "Rename the helper in src/math.ts to addAll." }] },
    { id: "g1", timestamp: "2026-01-02T10:00:02.000Z", type: "gemini", content: "", model: "gemini-x" },
    // line 4: the same reply, now complete: it replaces line 3
    {
      id: "g1",
      timestamp: "2026-01-02T10:00:03.000Z",
      type: "gemini",
      content: "Reading the file first.",
      model: "gemini-x",
      thoughts: [{ subject: "Plan", description: "Look at the helper before renaming it.", timestamp: "2026-01-02T10:00:02.500Z" }],
      toolCalls: [
        {
          id: "read_1",
          name: "read_file",
          args: { file_path: "src/math.ts" },
          status: "success",
          result: [{ functionResponse: { id: "read_1", name: "read_file", response: { output: "export const sum = (a: number[]) => 0;" } } }],
        },
      ],
      tokens: { input: 1200, output: 40, cached: 200, thoughts: 10, tool: 0, total: 1250 },
    },
    { $set: { lastUpdated: "2026-01-02T10:00:04.000Z" } },
    {
      id: "g2",
      timestamp: "2026-01-02T10:00:05.000Z",
      type: "gemini",
      content: "Renamed sum to addAll.",
      model: "gemini-x",
      tokens: { input: 1500, output: 20, cached: 1000, thoughts: 0, tool: 0, total: 1520 },
    },
    { id: "i1", timestamp: "2026-01-02T10:00:06.000Z", type: "info", content: "Compressing chat history." },
    // line 8: the compression: a new active history
    {
      $set: {
        messages: [
          {
            id: "c1",
            timestamp: "2026-01-02T10:00:07.000Z",
            type: "user",
            content: [{ text: "<state_snapshot>\nGoal: rename sum to addAll in src/math.ts (done).\n</state_snapshot>" }],
          },
          { id: "c2", timestamp: "2026-01-02T10:00:07.100Z", type: "gemini", content: "Got it. Thanks for the additional context!" },
        ],
      },
    },
    { id: "u2", timestamp: "2026-01-02T10:00:08.000Z", type: "user", content: [{ text: "Now add a test." }] },
    {
      id: "g3",
      timestamp: "2026-01-02T10:00:09.000Z",
      type: "gemini",
      content: "Writing test/math.test.ts.",
      model: "gemini-x",
      tokens: { input: 300, output: 15, cached: 0, thoughts: 0, tool: 0, total: 315 },
    },
    // line 11: the user rewinds to before u2's answer and asks again
    { $rewindTo: "g3" },
    {
      id: "g4",
      timestamp: "2026-01-02T10:00:10.000Z",
      type: "gemini",
      content: "Adding the test next to the others.",
      model: "gemini-x",
      tokens: { input: 310, output: 12, cached: 0, thoughts: 0, tool: 0, total: 322 },
    },
  ]);
}

/**
 * Gemini CLI JSONL chat as its recorder writes the history again
 * (packages/core/src/services/chatRecordingService.ts): a new chat's
 * `$set.messages` holding the `<session_context>` turn alone; the header
 * written again by a writer that started over on the same file, then the
 * context turn set alone again (the context restarts: no compaction); a
 * compression (`$set.sessionId`, then the list: context turn, a
 * `<state_snapshot>` turn, the "Got it" reply, a kept turn under a new id);
 * and a resume that writes the same compressed list again (no second
 * compression).
 */
export function geminiRestarts(): string {
  const header = (startTime: string) => ({ sessionId: "s-composed-2", projectHash: "p0", startTime, lastUpdated: startTime, kind: "main" });
  const context = { id: "ctx", timestamp: "2026-02-01T09:00:00.000Z", type: "user", content: [{ text: "<session_context>\nWorkspace: /home/dev/clock\n</session_context>" }] };
  const user = (id: string, text: string) => ({ id, timestamp: "2026-02-01T09:01:00.000Z", type: "user", content: [{ text }] });
  const reply = (id: string, text: string, input: number) => ({
    id,
    timestamp: "2026-02-01T09:02:00.000Z",
    type: "gemini",
    content: text,
    model: "gemini-x",
    tokens: { input, output: 10, cached: 0, thoughts: 0, tool: 0, total: input + 10 },
  });
  const snapshot = user("snap", "<state_snapshot>\nGoal: make test/clock.test.ts deterministic.\n</state_snapshot>");
  const ack = { id: "ack", timestamp: "2026-02-01T09:03:00.000Z", type: "gemini", content: "Got it. Thanks for the additional context!" };
  const keptTurn = user("k1", "Use a fake timer instead of sleeping.");
  return lines([
    header("2026-02-01T09:00:00.000Z"),
    { $set: { messages: [context] } }, // line 2: a new chat
    user("u1", "Fix the flaky test in test/clock.test.ts."),
    reply("g1", "It sleeps 10 ms and races the clock.", 900),
    header("2026-02-01T10:00:00.000Z"), // line 5: the writer started over
    { $set: { messages: [context] } }, // line 6: the context restarts from the context turn
    user("u2", "Use a fake timer instead of sleeping."),
    reply("g2", "Switched to a fake timer.", 950),
    { $set: { sessionId: "s-composed-2" } },
    { $set: { messages: [context, snapshot, ack, keptTurn] } }, // line 10: the compression
    user("u3", "Now run the tests."),
    reply("g3", "All 12 pass.", 400),
    { $set: { messages: [context, snapshot, ack, keptTurn, user("u3", "Now run the tests."), reply("g3", "All 12 pass.", 400)] } }, // line 13: a resume
    user("u4", "Commit it."),
  ]);
}

/**
 * A Cline task folder (`…/tasks/<taskId>/`): api_conversation_history.json as
 * Cline writes it (Anthropic blocks, a first user turn wrapped in <task>),
 * ui_messages.json whose `api_req_started` rows carry usage as JSON text and,
 * later, a `conversationHistoryDeletedRange` (Cline's context truncation), and
 * task_metadata.json.
 */
export function clineTask(): { name: string; bytes: Uint8Array }[] {
  const history = [
    { role: "user", content: [{ type: "text", text: "<task>\nAdd a --verbose flag to the CLI.\n</task>" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "I will read the argument parser." },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "src/args.ts" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "export function parse() {}" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Adding the flag." },
        { type: "tool_use", id: "t2", name: "replace_in_file", input: { path: "src/args.ts", diff: "+verbose" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "ok" }] },
    { role: "assistant", content: [{ type: "text", text: "Done: --verbose prints each step." }] },
  ];
  const ui = [
    { ts: 1, type: "say", say: "task", text: "Add a --verbose flag to the CLI." },
    {
      ts: 2,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({ request: "…", tokensIn: 900, tokensOut: 50, cacheWrites: 100, cacheReads: 0, cost: 0.01 }),
      conversationHistoryIndex: 0,
    },
    {
      ts: 3,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({ request: "…", tokensIn: 30, tokensOut: 60, cacheWrites: 20, cacheReads: 1000, cost: 0.01 }),
      conversationHistoryIndex: 2,
    },
    // Cline truncated the window before its third request: history indices 1..2 are no longer sent.
    {
      ts: 4,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({ request: "…", tokensIn: 20, tokensOut: 30, cacheWrites: 0, cacheReads: 500, cost: 0.01 }),
      conversationHistoryIndex: 4,
      conversationHistoryDeletedRange: [1, 2],
    },
  ];
  const metadata = {
    files_in_context: [{ path: "src/args.ts", record_state: "active", record_source: "read_tool" }],
    model_usage: [{ ts: 2, model_id: "m", model_provider_id: "p", mode: "act" }],
  };
  return [
    { name: "tasks/1700000000000/api_conversation_history.json", bytes: encode(JSON.stringify(history)) },
    { name: "tasks/1700000000000/ui_messages.json", bytes: encode(JSON.stringify(ui)) },
    { name: "tasks/1700000000000/task_metadata.json", bytes: encode(JSON.stringify(metadata)) },
  ];
}

/**
 * A Roo Code / Kilo Code api_conversation_history.json after a condensation
 * and a truncation, both non-destructive: the summary carries `isSummary` and
 * `condenseId`, the messages it replaced keep their content and gain
 * `condenseParent`; the truncation marker carries `isTruncationMarker` and
 * `truncationId`, the hidden messages `truncationParent`.
 */
export function rooHistory(): string {
  return JSON.stringify([
    { role: "user", content: [{ type: "text", text: "<task>\nMigrate the config loader to YAML.\n</task>" }], ts: 10, condenseParent: "cd-1" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Reading config.ts." },
        { type: "tool_use", id: "r1", name: "read_file", input: { path: "config.ts" } },
      ],
      ts: 11,
      condenseParent: "cd-1",
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "r1", content: "export const load = () => JSON.parse(text);" }], ts: 12, condenseParent: "cd-1" },
    {
      role: "user",
      content: [{ type: "text", text: "Summary: the loader parses JSON in config.ts; the task is to switch it to YAML." }],
      ts: 13,
      isSummary: true,
      condenseId: "cd-1",
    },
    { role: "assistant", content: [{ type: "text", text: "Switching the parser." }], ts: 14, truncationParent: "tr-1" },
    { role: "user", content: [{ type: "text", text: "[Earlier turns were hidden to fit the window.]" }], ts: 15, isTruncationMarker: true, truncationId: "tr-1" },
    { role: "assistant", content: [{ type: "text", text: "The loader now reads YAML." }], ts: 16 },
  ]);
}

/**
 * An OpenCode export whose old tool output was pruned: the tool part keeps
 * its output and gains `state.time.compacted` (OpenCode then sends a
 * placeholder in its place).
 */
export function openCodePruned(): string {
  const part = (messageID: string, n: number, rest: Record<string, unknown>) => ({ id: `prt_${messageID}_${n}`, sessionID: "ses_c", messageID, ...rest });
  return JSON.stringify({
    info: { id: "ses_c", title: "composed", directory: "/w", version: "1.4.3", time: { created: 1000, updated: 9000 } },
    messages: [
      { info: { id: "msg_1", role: "user", sessionID: "ses_c", time: { created: 1000 } }, parts: [part("msg_1", 1, { type: "text", text: "List the files." })] },
      {
        info: {
          id: "msg_2",
          role: "assistant",
          parentID: "msg_1",
          sessionID: "ses_c",
          time: { created: 2000, completed: 2100 },
          tokens: { total: 130, input: 100, output: 30, reasoning: 0, cache: { read: 0, write: 0 } },
        },
        parts: [
          part("msg_2", 1, { type: "step-start" }),
          part("msg_2", 2, {
            type: "tool",
            tool: "bash",
            callID: "call_1",
            state: { status: "completed", input: { command: "ls" }, output: "a.txt\nb.txt", title: "ls", metadata: {}, time: { start: 2010, end: 2020, compacted: 5000 } },
          }),
          part("msg_2", 3, { type: "step-finish", reason: "tool-calls", tokens: { total: 130, input: 100, output: 30, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 }),
          part("msg_2", 4, { type: "step-start" }),
          part("msg_2", 5, { type: "text", text: "Two files: a.txt and b.txt." }),
          part("msg_2", 6, { type: "step-finish", reason: "stop", tokens: { total: 150, input: 20, output: 10, reasoning: 0, cache: { read: 120, write: 0 } }, cost: 0 }),
        ],
      },
      { info: { id: "msg_3", role: "user", sessionID: "ses_c", time: { created: 6000 } }, parts: [part("msg_3", 1, { type: "text", text: "Thanks." })] },
    ],
  });
}

/**
 * Aider's chat history (`.aider.chat.history.md`): two runs, each opened by
 * its heading; the user's lines under `#### `, Aider's console under `> `
 * (two trailing spaces, as Aider writes them), the model's reply with its
 * thinking and a SEARCH/REPLACE edit, and the rounded token line.
 */
export function aiderHistory(): string {
  return [
    "",
    "# aider chat started at 2026-03-01 09:00:00",
    "",
    "> Aider v0.86.2  ",
    "> Model: openai/gpt-4o with diff edit format  ",
    "> Git repo: .git with 12 files  ",
    "",
    "#### Add a fib function to src/fib.py.  ",
    "#### Never use recursion in this repo.  ",
    "",
    "<thinking-content-0a1b2c3d>",
    "",
    "A loop keeps it linear.",
    "",
    "</thinking-content-0a1b2c3d>",
    "",
    "Here is an iterative version.",
    "",
    "src/fib.py",
    "```python",
    "<<<<<<< SEARCH",
    "=======",
    "def fib(n):",
    "    a, b = 0, 1",
    "    for _ in range(n):",
    "        a, b = b, a + b",
    "    return a",
    ">>>>>>> REPLACE",
    "```",
    "",
    "> Tokens: 1.9k sent, 120 received. Cost: $0.01 message, $0.01 session.  ",
    "> Applied edit to src/fib.py  ",
    "> Commit 4f1c2ab feat: add iterative fib  ",
    "",
    "# aider chat started at 2026-03-02 14:30:00",
    "",
    "> Aider v0.86.2  ",
    "",
    "#### /run pytest -q  ",
    "> 3 passed in 0.02s  ",
    "",
    "#### Thanks, that is all.  ",
    "",
    "Glad it passes.",
    "",
    "> Tokens: 2.3k sent, 1.2k cache hit, 15 received.  ",
    "",
  ].join("\n");
}

/**
 * A Cline task (api_conversation_history.json) of the newer releases: the
 * model's tool calls as tool_use blocks, their results sent back as text
 * blocks of the next user message ("[read_file for '…'] Result:"), and the
 * user's own words only inside <task> and <feedback>.
 */
export function clineTextResults(): string {
  return JSON.stringify([
    {
      role: "user",
      ts: 1,
      content: [
        { type: "text", text: "<task>\nMove the config loader to src/config.ts. Never commit secrets.\n</task>" },
        { type: "text", text: "<environment_details>\n# Current Working Directory (/home/dev/app) Files\nsrc/\n</environment_details>" },
      ],
    },
    {
      role: "assistant",
      ts: 2,
      content: [
        { type: "tool_use", id: "tu_1", name: "read_file", input: { path: "src/index.ts" } },
        { type: "tool_use", id: "tu_2", name: "write_to_file", input: { absolutePath: "/home/dev/app/src/config.ts", content: "export {}" } },
      ],
    },
    {
      role: "user",
      ts: 3,
      content: [
        { type: "text", text: "[read_file for 'src/index.ts'] Result:\nimport './config';" },
        { type: "text", text: "[write_to_file for '/home/dev/app/src/config.ts'] Result:\nThe content was successfully saved to src/config.ts." },
        { type: "text", text: "The user has provided feedback on the results.\n<feedback>\nAlso keep the old path working.\n</feedback>" },
        { type: "text", text: "<environment_details>\n# Current Working Directory (/home/dev/app) Files\n</environment_details>" },
      ],
    },
  ]);
}

/**
 * Qwen Code chat (`~/.qwen/…/chats/<sessionId>.jsonl`, QwenLM/qwen-code's
 * chatRecordingService): records chained by uuid/parentUuid, Gemini Content
 * messages (a thought part, a functionCall, a tool_result record with its
 * functionResponse), usageMetadata on each reply, bookkeeping system
 * records, and a chat_compression record whose compressedHistory is what the
 * model sees from there, with the token figures before and after.
 */
export function qwenChat(): string {
  const base = (uuid: string, parentUuid: string | null, type: string, extra: Record<string, unknown>) => ({
    uuid,
    parentUuid,
    sessionId: "q-composed-1",
    timestamp: `2026-02-01T10:00:0${uuid.slice(-1)}.000Z`,
    type,
    cwd: "/home/dev/calc",
    version: "0.9.0",
    ...extra,
  });
  return lines([
    base("r1", null, "user", { message: { role: "user", parts: [{ text: "Add a mean() helper to src/stats.ts. Never change the public API." }] } }),
    base("r2", "r1", "assistant", {
      model: "qwen3-coder",
      contextWindowSize: 131072,
      usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 80, cachedContentTokenCount: 200, totalTokenCount: 1280 },
      message: {
        role: "model",
        parts: [{ text: "Reading the file first.", thought: true }, { functionCall: { id: "call_1", name: "read_file", args: { absolute_path: "/home/dev/calc/src/stats.ts" } } }],
      },
    }),
    base("r3", "r2", "tool_result", {
      toolCallResult: { callId: "call_1", status: "success" },
      message: {
        role: "user",
        parts: [{ functionResponse: { id: "call_1", name: "read_file", response: { output: "export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);" } } }],
      },
    }),
    base("r4", "r3", "system", { subtype: "ui_telemetry", systemPayload: { uiEvent: { "event.name": "qwen-code.api_response" } } }),
    base("r5", "r4", "system", {
      subtype: "chat_compression",
      systemPayload: {
        info: { originalTokenCount: 9000, newTokenCount: 1500, compressionStatus: 1 },
        compressedHistory: [
          { role: "user", parts: [{ text: "<state_snapshot>The user wants mean() in src/stats.ts; the public API must not change.</state_snapshot>" }] },
          { role: "model", parts: [{ text: "Got it. Thanks for the additional context!" }] },
        ],
      },
    }),
    base("r6", "r5", "user", { message: { role: "user", parts: [{ text: "Go on." }] } }),
    base("r7", "r6", "assistant", {
      usageMetadata: { promptTokenCount: 1600, candidatesTokenCount: 40, totalTokenCount: 1640 },
      message: { role: "model", parts: [{ text: "Added mean() next to sum()." }] },
    }),
  ]);
}

/**
 * Cursor agent transcript (`~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl`):
 * `{role, message: {content}}` lines without ids or timestamps, the user's
 * query wrapped in <user_query>, Anthropic-style tool_use and tool_result
 * blocks (the result without the call's id), and a line marking the turn's end.
 */
export function cursorTranscript(): string {
  return lines([
    {
      role: "user",
      message: {
        content: [{ type: "text", text: "<attached_files>\nsrc/a.ts\n</attached_files>\n<user_query>\nRename add to sum in src/a.ts. Never touch the tests.\n</user_query>" }],
      },
    },
    {
      role: "assistant",
      message: {
        content: [
          { type: "text", text: "Reading it first." },
          { type: "tool_use", name: "read_file", input: { target_file: "src/a.ts" } },
        ],
      },
    },
    { role: "user", message: { content: [{ type: "tool_result", content: "export const add = (a: number, b: number) => a + b;" }] } },
    {
      role: "assistant",
      message: { content: [{ type: "tool_use", name: "edit_file", input: { target_file: "src/a.ts", code_edit: "export const sum = (a: number, b: number) => a + b;" } }] },
    },
    { role: "user", message: { content: [{ type: "tool_result", content: [{ type: "text", text: "The edit was applied." }] }] } },
    { role: "assistant", message: { content: "Renamed." } },
    { type: "turn_ended" },
  ]);
}

export const composedBytes = {
  geminiJsonl: () => encode(geminiJsonl()),
  geminiRestarts: () => encode(geminiRestarts()),
  rooHistory: () => encode(rooHistory()),
  openCodePruned: () => encode(openCodePruned()),
  aiderHistory: () => encode(aiderHistory()),
  clineTextResults: () => encode(clineTextResults()),
  qwenChat: () => encode(qwenChat()),
  cursorTranscript: () => encode(cursorTranscript()),
  clineUiLog: () => encode(JSON.stringify(clineUiLog())),
};

/**
 * A Cline task's UI log alone (ui_messages.json, Cline's ClineMessage records): the task, reasoning,
 * text, file tools under the UI's names, a command and its output, a question and the reply, usage
 * rows whose request names the working directory (the second after a truncation), a progress
 * checklist, an error sharing a ts with the record before it, a kind no release writes yet, and the
 * completion.
 */
export function clineUiLog(): Record<string, unknown>[] {
  const request = (cwd: string) => `<task>Fix the date parser.</task>\n<environment_details>\n# Current Working Directory (${cwd}) Files\nsrc/\n</environment_details>`;
  const usage = (tokensIn: number, cwd: string, extra: Record<string, unknown> = {}) => ({
    type: "say",
    say: "api_req_started",
    text: JSON.stringify({ request: request(cwd), tokensIn, tokensOut: 40, cacheWrites: 10, cacheReads: 200, cost: 0.01 }),
    ...extra,
  });

  return [
    { ts: 100, type: "say", say: "task", text: "Fix the date parser. Never change the public API of src/date.ts." },
    { ts: 101, ...usage(1000, "/home/dev/dates") },
    { ts: 102, type: "say", say: "reasoning", text: "The parser must accept ISO weeks." },
    { ts: 103, type: "say", say: "text", text: "I will read the parser first." },
    { ts: 104, type: "say", say: "tool", text: JSON.stringify({ tool: "readFile", path: "src/format.ts", content: "/home/dev/dates/src/format.ts" }) },
    { ts: 105, type: "ask", ask: "tool", text: JSON.stringify({ tool: "editedExistingFile", path: "src/date.ts", diff: "- old\n+ new" }) },
    { ts: 106, type: "say", say: "checkpoint_created", lastCheckpointHash: "abc" },
    { ts: 107, type: "ask", ask: "command", text: "npm test" },
    { ts: 108, type: "ask", ask: "command_output", text: "Tests: 12 passed, 12 total" },
    { ts: 109, type: "ask", ask: "followup", text: JSON.stringify({ question: "Also cover leap years?", options: ["yes", "no"] }) },
    { ts: 110, type: "say", say: "user_feedback", text: "yes, and keep the old behaviour for empty strings" },
    { ts: 111, ...usage(1400, "/home/dev/dates", { conversationHistoryIndex: 6, conversationHistoryDeletedRange: [1, 2] }) },
    { ts: 111, type: "say", say: "task_progress", text: "- [x] read\n- [ ] leap years" },
    { ts: 112, type: "say", say: "tool", text: JSON.stringify({ tool: "newFileCreated", path: "test/leap.test.ts", content: "it('leap')" }) },
    { ts: 112, type: "say", say: "error", text: "Cline tried to use replace_in_file without value for required parameter 'diff'." },
    { ts: 114, type: "say", say: "some_future_kind", text: "?" },
    { ts: 115, type: "say", say: "completion_result", text: "The parser accepts ISO weeks and leap years." },
  ];
}

/**
 * A Kiro CLI `/chat save` after a `/compact` (Kiro's ConversationState: the history it sends, the
 * transcript as shown, the summary /compact wrote): before the compaction the user asked for a
 * fix and set a rule, the agent edited a file and ran the tests; after it, the history holds one
 * prompt, an edit, a test run and the answer.
 */
export function kiroSave(): Record<string, unknown> {
  const env = { env_state: { operating_system: "linux", current_working_directory: "/home/dev/ledger", environment_variables: [] } };
  const request = (pct: number | null, ms: number) => ({
    request_id: `r${ms}`,
    context_usage_percentage: pct,
    message_id: `m${ms}`,
    request_start_timestamp_ms: ms,
    model_id: "auto",
  });
  return {
    conversation_id: "6f1c2a9e-0000-4000-8000-000000000001",
    next_message: null,
    history: [
      {
        user: { additional_context: "", env_context: env, content: { Prompt: { prompt: "Now round the totals to cents." } }, timestamp: null, images: null },
        assistant: {
          ToolUse: {
            message_id: "a1",
            content: "Rounding in the report.",
            tool_uses: [
              { id: "tooluse_1", name: "fs_write", orig_name: "fs_write", args: { command: "str_replace", path: "src/report.ts", old_str: "total", new_str: "round(total)" } },
            ],
          },
        },
        request_metadata: request(12.5, 1773177000000),
      },
      {
        user: { env_context: env, content: { ToolUseResults: { tool_use_results: [{ tool_use_id: "tooluse_1", content: [{ Text: "" }], status: "Success" }] } } },
        assistant: {
          ToolUse: {
            message_id: "a2",
            content: "",
            tool_uses: [{ id: "tooluse_2", name: "execute_bash", orig_name: "execute_bash", args: { command: "npm test", summary: "Run the tests" } }],
          },
        },
        request_metadata: request(13, 1773177005000),
      },
      {
        user: {
          env_context: env,
          content: {
            ToolUseResults: {
              tool_use_results: [{ tool_use_id: "tooluse_2", content: [{ Json: { exit_status: "0", stdout: "Tests: 9 passed, 9 total", stderr: "" } }], status: "Success" }],
            },
          },
        },
        assistant: { Response: { message_id: "a3", content: "Totals are rounded to cents; the 9 tests pass." } },
        request_metadata: request(13.5, 1773177010000),
      },
    ],
    valid_history_range: [0, 3],
    transcript: [
      "> Fix the ledger import. Never touch migrations/.",
      "I'll read the importer first.\n[Tool uses: fs_read]",
      "Fixed the off-by-one in src/import.ts.\n[Tool uses: fs_write]",
      "\n[Tool uses: execute_bash]",
      "The import test passes.",
      "> /compact",
      "> Now round the totals to cents.",
      "Rounding in the report.\n[Tool uses: fs_write]",
      "\n[Tool uses: execute_bash]",
      "Totals are rounded to cents; the 9 tests pass.",
    ],
    tools: {},
    context_manager: null,
    latest_summary: ["## OBJECTIVE\nFix the ledger import.\n\n## COMPLETED\n- Fixed an off-by-one in src/import.ts; its test passes.", request(null, 1773176990000)],
    model_info: { model_name: "auto", model_id: "auto", context_window_tokens: 200000 },
    file_line_tracker: {},
    user_turn_metadata: { continuation_id: "c1", requests: [], usage_info: [] },
  };
}
