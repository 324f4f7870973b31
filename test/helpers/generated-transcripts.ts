/**
 * Generated Claude Code transcripts and Codex rollouts of at least 50 records (their format is named
 * by their first 50): the shapes the streamed compaction and the follower read one record at a time.
 */
import fc from "fast-check";

/**
 * A generated Claude Code transcript of at least 50 records (its format is
 * known from its first 50), turn by turn: a user line, an assistant message
 * streamed as one to three lines sharing its message id (with tool results
 * between them, as Claude Code writes parallel calls), its results on the
 * path or hanging beside it, and now and then a branch from an earlier line,
 * a sidechain, a compact boundary whose logical parent exists or not, a line
 * without a uuid, a duplicate uuid.
 */
export const claudeSession = fc
  .array(
    fc.record({
      text: fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"'), maxLength: 20 }),
      lines: fc.integer({ min: 1, max: 3 }),
      calls: fc.integer({ min: 0, max: 3 }),
      resultsBetween: fc.boolean(),
      beside: fc.boolean(),
      branchFrom: fc.option(fc.nat(200), { freq: 6 }),
      extra: fc.constantFrom("none", "none", "none", "sidechain", "boundary", "lostBoundary", "snapshot", "meta", "duplicate"),
    }),
    { minLength: 12, maxLength: 25 },
  )
  .map((turns) => {
    const lines: string[] = [];
    const uuids: string[] = [];
    let last: string | null = null;
    let n = 0;
    const add = (record: Record<string, unknown>, parentUuid: string | null = last, uuid = `u${n++}`) => {
      lines.push(JSON.stringify({ parentUuid, isSidechain: false, sessionId: "s", cwd: "/w", version: `2.1.${n % 3}`, uuid, timestamp: "t", ...record }));
      uuids.push(uuid);
      return uuid;
    };
    const results = (calls: string[], text: string, parent: string | null) =>
      add(
        {
          type: "user",
          message: { role: "user", content: calls.map((id) => ({ type: "tool_result", tool_use_id: id, content: `${text} exit code 1`, is_error: text.length % 2 === 0 })) },
        },
        parent,
      );
    turns.forEach((turn, t) => {
      if (turn.branchFrom !== null && uuids.length > 0) last = uuids[turn.branchFrom % uuids.length]!;
      last = add({ type: "user", message: { role: "user", content: turn.text } });
      for (let k = 0; k < turn.lines; k++) {
        const calls = Array.from({ length: turn.calls }, (_, c) => `t${t}_${k}_${c}`);
        const content = [
          ...(k === 0 ? [{ type: "thinking", thinking: turn.text, signature: "x" }] : []),
          { type: "text", text: turn.text },
          ...calls.map((id) => ({ type: "tool_use", id, name: "Bash", input: { command: turn.text } })),
        ];
        const assistant = add({ type: "assistant", message: { id: `msg${t}`, role: "assistant", model: "m", content, usage: { input_tokens: 1, output_tokens: 1 } } });
        last = assistant;
        if (calls.length === 0) continue;
        if (turn.beside)
          results(calls, turn.text, assistant); // hangs off the assistant line, beside what follows it
        else if (turn.resultsBetween || k === turn.lines - 1) last = results(calls, turn.text, assistant);
      }
      switch (turn.extra) {
        case "sidechain":
          add({ type: "user", isSidechain: true, message: { role: "user", content: turn.text } });
          break;
        case "boundary":
        case "lostBoundary":
          last = add({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", logicalParentUuid: turn.extra === "boundary" ? last : "gone" }, null);
          break;
        case "snapshot":
          lines.push(JSON.stringify({ type: "file-history-snapshot", messageId: `m${t}`, snapshot: {} }));
          break;
        case "meta":
          last = add({ type: "user", isMeta: true, message: { role: "user", content: [{ type: "text", text: turn.text }] } });
          break;
        case "duplicate":
          add({ type: "user", message: { role: "user", content: "again" } }, last, uuids[0]);
          break;
      }
    });
    while (lines.length < 50) last = add({ type: "user", message: { role: "user", content: "more" } });
    return lines.join("\n") + "\n";
  });

/**
 * A generated Codex rollout of at least 50 records, modern or legacy: session
 * metadata (repeated on a resume), turn contexts, user and assistant
 * messages, reasoning, function and custom tool calls with their outputs,
 * display events, `compacted` records with a replacement history, legacy
 * state lines and record kinds the reader does not know (a legacy rollout
 * drops the modern-only kinds, so some have fewer than 50 records and are
 * read whole).
 */
export const codexRollout = fc
  .record({
    legacy: fc.boolean(),
    items: fc.array(
      fc.record({
        kind: fc.constantFrom("user", "assistant", "reasoning", "call", "custom", "event", "turn", "compacted", "meta", "state", "unknown"),
        text: fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"'), maxLength: 20 }),
        exit: fc.integer({ min: 0, max: 2 }),
      }),
      { minLength: 50, maxLength: 80 },
    ),
  })
  .map(({ legacy, items }) => {
    const lines: unknown[] = [
      legacy ? { id: "s", timestamp: "t", instructions: "You are Codex." } : { timestamp: "t", type: "session_meta", payload: { id: "s", cwd: "/w", cli_version: "0.146.0" } },
    ];
    const item = (payload: Record<string, unknown>) => (legacy ? payload : { timestamp: "t", type: "response_item", payload });
    items.forEach((it, i) => {
      switch (it.kind) {
        case "user":
        case "assistant":
          lines.push(item({ type: "message", role: it.kind, content: [{ type: it.kind === "user" ? "input_text" : "output_text", text: it.text }] }));
          break;
        case "reasoning":
          lines.push(item({ type: "reasoning", id: `rs${i}`, summary: [{ type: "summary_text", text: it.text }], encrypted_content: "gAAA" }));
          break;
        case "call":
          lines.push(item({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", it.text] }), call_id: `c${i}` }));
          lines.push(item({ type: "function_call_output", call_id: `c${i}`, output: JSON.stringify({ output: it.text, metadata: { exit_code: it.exit } }) }));
          break;
        case "custom":
          lines.push(item({ type: "custom_tool_call", name: "apply_patch", input: it.text, call_id: `p${i}` }));
          lines.push(item({ type: "custom_tool_call_output", call_id: `p${i}`, output: `Process exited with code ${it.exit}\n${it.text}` }));
          break;
        case "event":
          if (!legacy) lines.push({ timestamp: "t", type: "event_msg", payload: { type: "agent_message", message: it.text } });
          break;
        case "turn":
          if (!legacy) lines.push({ timestamp: "t", type: "turn_context", payload: { turn_id: `t${i}`, model: "gpt-5.4" } });
          break;
        case "compacted":
          if (!legacy)
            lines.push({
              timestamp: "t",
              type: "compacted",
              payload: { message: it.text, replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: it.text }] }] },
            });
          break;
        case "meta":
          if (!legacy) lines.push({ timestamp: "t", type: "session_meta", payload: { id: "s", cwd: "/w", cli_version: "0.147.0" } });
          break;
        case "state":
          if (legacy) lines.push({ record_type: "state" });
          break;
        default:
          lines.push(legacy ? { type: "world_state", x: it.text } : { timestamp: "t", type: "world_state", payload: { x: it.text } });
      }
    });
    return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
  });
