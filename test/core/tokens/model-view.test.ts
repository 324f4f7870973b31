/**
 * The model's view: per-format rendering rules with labelled expectations on
 * small composed messages, and on every real fixture the guarantee that no
 * harness metadata (a value only in `meta`) reaches the view.
 */
import { describeWithFixtures } from "../../helpers/fixtures.ts";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../core/model.ts";
import { messageSegments, modelView, viewText } from "../../../core/model-view.ts";
import { fixturesByLoadability } from "../../helpers/loadable.ts";

const msg = (role: Message["role"], blocks: Message["blocks"], meta: Record<string, unknown> = {}): Message => ({ id: "m1", role, meta, blocks });

describe("the model's view of one message", () => {
  it("Pi bash runs read as Pi's own user text: the command, the fenced output, a non-zero exit", () => {
    const bash = msg("bash", [{ type: "text", text: "boom" }], {
      role: "bashExecution",
      command: "npm test",
      exitCode: 1,
      cancelled: false,
      truncated: false,
      timestamp: 1767225601000,
    });
    expect(viewText(messageSegments(bash, "pi"))).toBe("Ran `npm test`\n```\nboom\n```\n\nCommand exited with code 1");
    expect(messageSegments(bash, "pi").map((s) => s.category)).toEqual(["toolCalls", "toolOutput", "toolOutput", "toolOutput", "toolOutput"]);
  });

  it("Pi bash runs excluded from context (`!!`) reach the model not at all", () => {
    const excluded = msg("bash", [{ type: "text", text: "secret" }], { command: "ls", excludeFromContext: true });
    expect(messageSegments(excluded, "pi")).toEqual([]);
  });

  it("Pi summaries arrive wrapped the way Pi wraps them (compaction and branch summary differ)", () => {
    const compaction = msg("summary", [{ type: "text", text: "S" }], { type: "compaction", tokensBefore: 1000, firstKeptEntryId: "abcd1234" });
    expect(
      messageSegments(compaction, "pi")
        .map((s) => s.text)
        .join(""),
    ).toBe("The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>");
    const branch = msg("summary", [{ type: "text", text: "B" }], { type: "branch_summary", fromId: "ffff0000" });
    expect(
      messageSegments(branch, "pi")
        .map((s) => s.text)
        .join(""),
    ).toBe("The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>");
  });

  it("tool calls read as name and arguments; Codex's exact argument string wins over a re-serialization", () => {
    const call = msg("assistant", [{ type: "toolCall", id: "call_1", name: "shell", arguments: { command: ["ls"] }, extra: { argumentsJson: '{"command": ["ls"]}' } }]);
    expect(messageSegments(call, "codex")).toEqual([{ category: "toolCalls", text: 'shell {"command": ["ls"]}' }]);
    const plain = msg("assistant", [{ type: "toolCall", id: "toolu_1", name: "Read", arguments: { file_path: "/a.ts" } }]);
    expect(messageSegments(plain, "claude")).toEqual([{ category: "toolCalls", text: 'Read {"file_path":"/a.ts"}' }]);
  });

  it("omission markers read as the marker text, with the recovery id the model can ask for", () => {
    const marker = msg("toolResult", [{ type: "omitted", recoveryId: "m1#/blocks", sha256: "ab".repeat(32), bytes: 900, kind: "toolResult", label: "read output, 900 bytes" }]);
    expect(messageSegments(marker, "pi")).toEqual([{ category: "markers", text: "[moved out: read output, 900 bytes · recover m1#/blocks]" }]);
  });

  it("encrypted reasoning and images count by size only, labelled; Codex ghost snapshots are never sent", () => {
    const reasoning = msg("assistant", [{ type: "thinking", text: "Looked at tests", extra: { summary: [], encrypted_content: "x".repeat(400) } }]);
    expect(messageSegments(reasoning, "codex")).toEqual([{ category: "thinking", text: "Looked at tests", opaque: { bytes: 400, label: "encrypted reasoning" } }]);
    const image = msg("user", [{ type: "image", mimeType: "image/png", data: "A".repeat(400) }]);
    expect(messageSegments(image, "claude")).toEqual([{ category: "images", text: "", opaque: { bytes: 300, label: "image/png" } }]);
    const redacted = msg("assistant", [{ type: "raw", value: { type: "redacted_thinking", data: "q".repeat(64) } }]);
    expect(messageSegments(redacted, "claude")[0]).toEqual({ category: "thinking", text: "", opaque: { bytes: 64, label: "redacted reasoning" } });
    const ghost = msg("custom", [{ type: "raw", value: { type: "ghost_snapshot", ghost_commit: { id: "abc" } } }]);
    expect(messageSegments(ghost, "codex")).toEqual([]);
  });

  it("categories follow the role: user and assistant prose, tool output, summaries, injected instructions", () => {
    const view = modelView(
      [
        msg("user", [{ type: "text", text: "u" }]),
        msg("assistant", [
          { type: "text", text: "a" },
          { type: "thinking", text: "t" },
        ]),
        msg("toolResult", [{ type: "text", text: "o" }]),
        msg("summary", [{ type: "text", text: "s" }]),
        msg("system", [{ type: "text", text: "i" }]),
      ],
      "claude",
    );
    expect(view.map((m) => m.segments.map((s) => `${s.category}:${s.text}`))).toEqual([
      ["userProse:u"],
      ["assistantProse:a", "thinking:t"],
      ["toolOutput:o"],
      ["summaries:s"],
      ["instructions:i"],
    ]);
  });

  it("metadata never enters: Claude Code's toolUseResult, usage and ids stay out", () => {
    const result = msg("toolResult", [{ type: "text", text: "3 files changed" }], {
      toolResult: { type: "tool_result", tool_use_id: "toolu_01ABCDEFGH" },
      record: {
        uuid: "5d0f7a0e-aaaa-bbbb-cccc-000000000001",
        timestamp: "2026-01-01T00:00:00.000Z",
        toolUseResult: { stdout: "3 files changed", originalFile: "export const secretValue = 1;" },
      },
      usage: { input_tokens: 10 },
    });
    const text = viewText(messageSegments(result, "claude"));
    expect(text).toBe("3 files changed");
  });
});

/** Every string inside a value, recursively. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === "object" && value !== null) for (const key in value) strings((value as Record<string, unknown>)[key], out);
  return out;
}

/**
 * Metadata the model does receive, per format, by rule: Pi renders a bash
 * run's command and the full-output path into its text (bashExecutionToText).
 */
function modelVisibleMeta(message: Message, format: string): string[] {
  if (format === "pi" && message.role === "bash") return [message.meta.command, message.meta.fullOutputPath].filter((v): v is string => typeof v === "string");
  return [];
}

const ID_OR_TIME =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?|msg_[A-Za-z0-9]{16,}|req_[A-Za-z0-9]{16,}|toolu_[A-Za-z0-9]{16,}|call_[A-Za-z0-9]{16,})$/;

const { loaded, refused } = fixturesByLoadability();
const MESSAGE_ARRAYS = new Set(["openai", "anthropic"]);

describeWithFixtures("on every real fixture, the model's view holds no metadata-only value", () => {
  it.each(loaded.map((f) => [f.name, f] as const))("%s", (_name, { session }) => {
    const contexts = [session.branch(null), session.recordedContext(null).messages];
    for (const compaction of session.recordedCompactions(null)) contexts.push(compaction.before, compaction.after);
    let checked = 0;
    for (const context of contexts) {
      const contentWords = new Set<string>();
      const viewWords = new Set<string>();
      const idsAndTimes = new Set<string>();
      for (const [i, { segments }] of modelView(context, session.format).entries()) {
        const message = context[i]!;
        const text = viewText(segments);
        const content = strings(message.blocks);
        const allowed = modelVisibleMeta(message, session.format);
        for (const value of strings(message.meta)) {
          if (ID_OR_TIME.test(value)) idsAndTimes.add(value);
          // Short values ("user", "toolUse") occur in ordinary prose; a value also in the content is content.
          if (value.length < 12 || allowed.includes(value) || content.some((c) => c.includes(value))) continue;
          checked++;
          expect(text.includes(value), `message ${message.id}: metadata value ${JSON.stringify(value.slice(0, 80))} is in the model's view`).toBe(false);
        }
        for (const word of content.join("\n").split(/[^\w:.-]+/)) contentWords.add(word);
        for (const word of text.split(/[^\w:.-]+/)) viewWords.add(word);
      }
      // Ids and timestamps from any message's metadata appear nowhere in the view, unless some content quotes them.
      for (const value of idsAndTimes) if (!contentWords.has(value)) expect(viewWords.has(value), `${value} leaked into the view`).toBe(false);
    }
    // Plain message arrays carry no harness metadata; every agent's own session format does.
    if (!MESSAGE_ARRAYS.has(session.format)) expect(checked, "the fixture has metadata-only values to check").toBeGreaterThan(0);
  });

  it.skipIf(refused.length === 0).each(refused.map((f) => [f.name, f.reason] as const))("%s is refused by every reader today (formats, #18): %s", () => {});
});
