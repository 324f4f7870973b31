/**
 * Composes a synthetic Pi v3 session of about `targetBytes`: realistic turns
 * (user request, assistant thinking + prose + tool call, tool result with a
 * few KB of output, now and then a failing bash run). Deterministic: the same
 * size gives the same bytes. Used by the benchmarks and the browser scale test.
 */
export function generatePiSession(targetBytes: number): string {
  return [...piSessionLines(targetBytes)].join("\n") + "\n";
}

/**
 * The same session line by line (without their newlines), for sessions past
 * V8's string limit (about 512 MB), which cannot be one string:
 * `npm run generate -- 1000 FILE` writes one of about 1,000 MB.
 */
export function* piSessionLines(targetBytes: number): Generator<string> {
  const { line, size } = lineWriter();
  yield line({ type: "session", version: 3, id: "01900000-0000-7000-8000-00000000bench", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/dev/bench" });
  let parent: string | null = null;
  let n = 0;
  const id = () => (n++).toString(16).padStart(8, "0");
  const output = (turn: number) =>
    Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(4)}  export function handler${turn}_${i}(input: Input): Output { return transform(input, ${i}); }`).join("\n");
  for (let turn = 0; size() < targetBytes; turn++) {
    const user = id();
    yield line({
      type: "message",
      id: user,
      parentId: parent,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: {
        role: "user",
        content: `Turn ${turn}: refactor src/module${turn % 97}.ts so the handler stops throwing on empty input. Never touch migrations/.`,
        timestamp: 1767225601000 + turn,
      },
    });
    const assistant = id();
    const callId = `toolu_${turn.toString(36)}`;
    const failing = turn % 9 === 4;
    yield line({
      type: "message",
      id: assistant,
      parentId: user,
      timestamp: "2026-01-01T00:00:02.000Z",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: `The handler in module ${turn % 97} needs a guard before transform(). `.repeat(6), thinkingSignature: "sig" },
          { type: "text", text: `I'll ${failing ? "run the tests" : "read the module"} first.` },
          { type: "toolCall", id: callId, name: failing ? "bash" : "read", arguments: failing ? { command: "npm test" } : { path: `src/module${turn % 97}.ts` } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 1200, output: 180, cacheRead: 9000, cacheWrite: 0, totalTokens: 10380 },
        stopReason: "toolUse",
        timestamp: 1767225602000 + turn,
      },
    });
    const result = id();
    yield line({
      type: "message",
      id: result,
      parentId: assistant,
      timestamp: "2026-01-01T00:00:03.000Z",
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: failing ? "bash" : "read",
        content: [{ type: "text", text: failing ? `FAIL test/module.test.ts\n${output(turn)}\nCommand exited with code 1` : output(turn) }],
        isError: failing,
        timestamp: 1767225603000 + turn,
      },
    });
    parent = result;
  }
}

/**
 * The same turns as a Claude Code transcript, line by line: `npm run generate
 * -- 1000 FILE --format claude`. Every third turn the assistant streams its
 * message as two lines sharing one message id, with two parallel calls whose
 * results are one user line, as Claude Code writes them.
 */
export function* claudeSessionLines(targetBytes: number): Generator<string> {
  const { line, size } = lineWriter();
  let parent: string | null = null;
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, "0")}`;
  const base = (id: string) => ({
    parentUuid: parent,
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/bench",
    sessionId: "bench",
    version: "2.1.30",
    gitBranch: "main",
    uuid: id,
    timestamp: "2026-01-01T00:00:01.000Z",
  });
  const output = (turn: number) =>
    Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(4)}  export function handler${turn}_${i}(input: Input): Output { return transform(input, ${i}); }`).join("\n");
  for (let turn = 0; size() < targetBytes; turn++) {
    const user = uuid();
    yield line({
      ...base(user),
      type: "user",
      message: { role: "user", content: `Turn ${turn}: refactor src/module${turn % 97}.ts so the handler stops throwing on empty input. Never touch migrations/.` },
    });
    parent = user;
    const apiId = `msg_${turn.toString(36)}`;
    const usage = { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 9000, output_tokens: 180 };
    // Ids never repeat ("toolu_1ua" was both turn 66's first call and turn 2386's), as in a real transcript.
    const calls = turn % 3 === 0 ? [`toolu_${turn.toString(36)}_a`, `toolu_${turn.toString(36)}_b`] : [`toolu_${turn.toString(36)}`];
    const assistantLines = calls.length === 2 ? 2 : 1;
    for (let k = 0; k < assistantLines; k++) {
      const assistant = uuid();
      const content = [
        ...(k === 0 ? [{ type: "thinking", thinking: `The handler in module ${turn % 97} needs a guard before transform(). `.repeat(6), signature: "sig" }] : []),
        ...(k === 0 ? [{ type: "text", text: "I'll read the module first." }] : []),
        ...calls
          .slice(k, assistantLines === 2 ? k + 1 : undefined)
          .map((id) => ({ type: "tool_use", id, name: "Read", input: { file_path: `/home/dev/bench/src/module${turn % 97}.ts` } })),
      ];
      yield line({
        ...base(assistant),
        type: "assistant",
        message: { id: apiId, type: "message", role: "assistant", model: "claude-sonnet-4-5", content, stop_reason: "tool_use", usage },
        requestId: `req_${turn}`,
      });
      parent = assistant;
    }
    const results = uuid();
    yield line({
      ...base(results),
      type: "user",
      message: { role: "user", content: calls.map((id) => ({ type: "tool_result", tool_use_id: id, content: output(turn) })) },
      toolUseResult: { type: "text" },
    });
    parent = results;
  }
}

/** JSON lines and the characters written so far (each line's newline included). */
function lineWriter(): { line: (value: unknown) => string; size: () => number } {
  let size = 0;
  return {
    line: (value) => {
      const text = JSON.stringify(value);
      size += text.length + 1;
      return text;
    },
    size: () => size,
  };
}
