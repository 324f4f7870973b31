/**
 * Generated Pi sessions for property tests: a tree of entries with every kind
 * of message, some of them malformed on purpose (a parent that does not
 * exist, a reused id, two records run together on one line), v1 and v3.
 */
import fc from "fast-check";

/** A generated Pi session: a tree of entries with every kind of message, some of them malformed on purpose. */
export const piSession = fc
  .record({
    version: fc.constantFrom(1, 3),
    entries: fc.array(
      fc.record({
        parent: fc.oneof(fc.constant(-1), fc.nat(40), fc.constant(-2)), // -1: the entry before, -2: a parent that does not exist
        reuseId: fc.option(fc.nat(40), { freq: 12 }),
        kind: fc.constantFrom("user", "assistant", "toolResult", "bash", "compaction", "label", "custom"),
        text: fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\n", '"', "\\", "漢"), maxLength: 30 }),
        call: fc.nat(5),
        named: fc.boolean(),
        thinking: fc.boolean(),
        exit: fc.option(fc.integer({ min: -1, max: 2 })),
        runTogether: fc.boolean(),
      }),
      { maxLength: 30 },
    ),
  })
  .map(({ version, entries }) => {
    const lines: string[] = [JSON.stringify({ type: "session", version, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })];
    const ids: string[] = [];
    entries.forEach((e, i) => {
      const id = e.reuseId !== null && ids.length > 0 ? ids[e.reuseId % ids.length]! : `e${i}`;
      const parentId = e.parent === -2 ? "missing" : ids.length === 0 ? null : e.parent === -1 ? ids[ids.length - 1]! : ids[e.parent % ids.length]!;
      ids.push(id);
      const base = version === 1 ? {} : { id, parentId };
      let record: Record<string, unknown>;
      switch (e.kind) {
        case "user":
          record = { type: "message", ...base, message: { role: "user", content: e.text } };
          break;
        case "assistant": {
          const content: unknown[] = [];
          if (e.thinking) content.push({ type: "thinking", thinking: e.text, thinkingSignature: "sig" });
          content.push({ type: "text", text: e.text });
          content.push({ type: "toolCall", id: `call${e.call}`, name: `tool${e.call % 3}`, arguments: { command: e.text } });
          record = { type: "message", ...base, message: { role: "assistant", content, usage: { input: 1, output: 2 } } };
          break;
        }
        case "toolResult":
          record = {
            type: "message",
            ...base,
            message: {
              role: "toolResult",
              toolCallId: `call${e.call}`,
              ...(e.named ? { toolName: "read" } : {}),
              isError: e.exit === 1,
              content: [{ type: "text", text: `${e.text}\nexit code: ${e.exit}` }],
            },
          };
          break;
        case "bash":
          record = { type: "message", ...base, message: { role: "bashExecution", command: e.text, output: e.text, ...(e.exit !== null ? { exitCode: e.exit } : {}) } };
          break;
        case "compaction":
          record = { type: "compaction", ...base, summary: e.text, firstKeptEntryId: ids[0], tokensBefore: 10 };
          break;
        case "label":
          record = { type: "label", ...base, label: e.text };
          break;
        default:
          record = {
            type: "custom_message",
            ...base,
            customType: "note",
            content: [
              { type: "image", mimeType: "image/png", data: "aGk=" },
              { type: "mystery", x: e.text },
            ],
          };
      }
      const line = JSON.stringify(record);
      if (e.runTogether && lines.length > 1) lines[lines.length - 1] += line;
      else lines.push(line);
    });
    return lines.join("\n") + "\n";
  });
