/**
 * Synthetic sessions for the shapes no real fixture has, so that their
 * readers get a speed row too: a Cline task folder and a Gemini CLI JSONL
 * chat of about `targetBytes`, with the same kind of turns as generate.ts
 * (a request, prose + a tool call, a few KB of tool output). Deterministic:
 * the same size gives the same bytes.
 */
const encoder = new TextEncoder();

function output(turn: number): string {
  return Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(4)}  export function handler${turn}_${i}(input: Input): Output { return transform(input, ${i}); }`).join(
    "\n",
  );
}

const request = (turn: number) => `Turn ${turn}: refactor src/module${turn % 97}.ts so the handler stops throwing on empty input. Never touch migrations/.`;

/** api_conversation_history.json (Anthropic blocks, the first turn wrapped in <task>), ui_messages.json with usage rows, task_metadata.json. */
export function generateClineTask(targetBytes: number): { name: string; bytes: Uint8Array }[] {
  const history: unknown[] = [];
  const ui: unknown[] = [];
  let size = 0;
  for (let turn = 0; size < targetBytes; turn++) {
    const text = turn === 0 ? `<task>\n${request(turn)}\n</task>` : request(turn);
    const callId = `toolu_${turn.toString(36)}`;
    const turnMessages = [
      { role: "user", content: [{ type: "text", text }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: `Reading src/module${turn % 97}.ts first.` },
          { type: "tool_use", id: callId, name: "read_file", input: { path: `src/module${turn % 97}.ts` } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content: output(turn) }] },
      { role: "assistant", content: [{ type: "text", text: `Done: module${turn % 97} returns an empty result on empty input.` }] },
    ];
    for (const message of turnMessages) size += JSON.stringify(message).length + 1;
    history.push(...turnMessages);
    ui.push({
      ts: 1_767_225_600_000 + turn,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({ tokensIn: 900 + turn, tokensOut: 50, cacheWrites: 100, cacheReads: 1000 * turn, cost: 0.01 }),
      conversationHistoryIndex: history.length - 1,
    });
  }
  return [
    { name: "tasks/1767225600000/api_conversation_history.json", bytes: encoder.encode(JSON.stringify(history)) },
    { name: "tasks/1767225600000/ui_messages.json", bytes: encoder.encode(JSON.stringify(ui)) },
    { name: "tasks/1767225600000/task_metadata.json", bytes: encoder.encode(JSON.stringify({ files_in_context: [], model_usage: [] })) },
  ];
}

/** The JSONL form: the header on line 1, then one message a line (a user turn, a gemini reply with its tool call and result). */
export function generateGeminiJsonl(targetBytes: number): Uint8Array {
  const lines = [
    JSON.stringify({
      sessionId: "01900000-0000-7000-8000-00000000bench",
      projectHash: "bench",
      startTime: "2026-01-01T00:00:00.000Z",
      lastUpdated: "2026-01-01T00:00:00.000Z",
      kind: "main",
    }),
  ];
  let size = lines[0]!.length + 1;
  for (let turn = 0; size < targetBytes; turn++) {
    const callId = `read_file-${turn}`;
    const records = [
      { id: `u${turn}`, timestamp: "2026-01-01T00:00:01.000Z", type: "user", content: [{ text: request(turn) }] },
      {
        id: `g${turn}`,
        timestamp: "2026-01-01T00:00:02.000Z",
        type: "gemini",
        content: `Done: module${turn % 97} returns an empty result on empty input.`,
        model: "gemini-3-flash-preview",
        thoughts: [{ subject: "Plan", description: `Read module${turn % 97} before editing it.` }],
        tokens: { input: 9000 + turn, output: 120, cached: 8000, thoughts: 40, tool: 0, total: 9160 + turn },
        toolCalls: [
          {
            id: callId,
            name: "read_file",
            args: { file_path: `src/module${turn % 97}.ts` },
            status: "success",
            result: [{ functionResponse: { id: callId, name: "read_file", response: { output: output(turn) } } }],
          },
        ],
      },
    ];
    for (const record of records) {
      const line = JSON.stringify(record);
      lines.push(line);
      size += line.length + 1;
    }
  }
  return encoder.encode(lines.join("\n") + "\n");
}
