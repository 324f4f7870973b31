/**
 * Gemini CLI's saved tool outputs: a very large output goes to a sidecar
 * `<project temp>/tool-outputs/session-<sessionId>/<tool>_<callId>.txt` and the
 * model gets a preview naming it (gemini-cli packages/core/src/utils/fileUtils.ts,
 * formatTruncatedToolOutput / saveTruncatedToolOutput). No licensed public chat
 * has one, so the session here is composed: a JSONL chat as Gemini CLI writes
 * it, one call whose output was saved (the current preview: head, omitted
 * count, tail), one from an older release ("Showing the last N of M lines"),
 * and one ordinary output that merely mentions the phrase later on.
 */
import { describe, expect, it } from "vitest";
import { discoverSessions, type ListedFile } from "../../core/library/discover.ts";
import { loadSession } from "../../core/session.ts";
import { loadSessionFiles } from "../../core/session-files.ts";

const SESSION_ID = "7c1e2f3a-0b9d-4c5e-8f10-223344556677";
const SIDECAR_DIR = `/home/dev/.gemini/tmp/ab12/tool-outputs/session-${SESSION_ID}`;

const call = (id: string, name: string, output: string) => ({
  id,
  name,
  args: { command: "npm test" },
  status: "success",
  result: [{ functionResponse: { id, name, response: { output } } }],
});

const currentPreview = `Output too large. Showing first 800 and last 3,200 characters. For full output see: ${SIDECAR_DIR}/run_shell_command_c1.txt\nPASS a\n\n... [96,000 characters omitted] ...\n\nTests: 412 passed`;
const olderPreview = `Output too large. Showing the last 3 of 9,000 lines. For full output see: ${SIDECAR_DIR}/grep_c2.txt\n...\nsrc/a.ts:1\nsrc/b.ts:2\nsrc/c.ts:3`;
const ordinary = "3 files changed.\nOutput too large. For full output see: nothing, this is the tool's own text";

const chat = [
  { sessionId: SESSION_ID, projectHash: "ab12", startTime: "2026-11-02T10:00:00.000Z", lastUpdated: "2026-11-02T10:05:00.000Z", kind: "main" },
  { id: "u1", timestamp: "2026-11-02T10:00:01.000Z", type: "user", content: [{ text: "Run the tests and find the callers." }] },
  {
    id: "g1",
    timestamp: "2026-11-02T10:00:05.000Z",
    type: "gemini",
    content: "",
    model: "gemini-3-flash-preview",
    toolCalls: [call("c1", "run_shell_command", currentPreview), call("c2", "grep", olderPreview), call("c3", "run_shell_command", ordinary)],
  },
];
const text = chat.map((record) => JSON.stringify(record)).join("\n") + "\n";

describe("Gemini CLI saved tool outputs (composed chat)", () => {
  const session = loadSession(text, { strict: true });
  const results = session.branch(null).filter((m) => m.role === "toolResult");

  it("reads the chat as Gemini's, with one result per call", () => {
    expect(session.format).toBe("gemini");
    expect(results.map((m) => m.meta.toolCallId)).toEqual(["c1", "c2", "c3"]);
  });

  it("marks each preview as the agent's own omission, naming the sidecar and what it shows; the text stays verbatim", () => {
    expect(results[0]!.meta.agentOmission).toEqual({
      marker: "gemini-tool-output",
      savedTo: `${SIDECAR_DIR}/run_shell_command_c1.txt`,
      shown: "first 800 and last 3,200 characters",
      omittedChars: 96000,
    });
    expect(results[1]!.meta.agentOmission).toEqual({ marker: "gemini-tool-output", savedTo: `${SIDECAR_DIR}/grep_c2.txt`, shown: "the last 3 of 9,000 lines" });
    expect(results[0]!.blocks).toEqual([expect.objectContaining({ type: "text", text: currentPreview })]);
  });

  it("leaves an output that does not open with the preview line unmarked", () => {
    expect(results[2]!.meta.agentOmission).toBeUndefined();
  });
});

describe("Gemini CLI masked tool outputs (composed: the history written again with an old output masked in place)", () => {
  // As toolOutputMaskingService.ts writes it: a preview of the first and last lines, then where the rest went.
  const longOutput = Array.from({ length: 40 }, (_, i) => `PASS test ${i}`).join("\n");
  const masked = `<tool_output_masked>\nPASS test 0\n\n... [20 lines omitted] ...\n\nPASS test 39\n\nOutput too large. Full output available at: ${SIDECAR_DIR}/run_shell_command_m1.txt\n</tool_output_masked>`;
  const reply = (output: string) => ({ id: "g1", timestamp: "2026-11-02T10:00:05.000Z", type: "gemini", content: "", toolCalls: [call("m1", "run_shell_command", output)] });
  const user = { id: "u1", timestamp: "2026-11-02T10:00:01.000Z", type: "user", content: [{ text: "Run the tests." }] };
  const records = [
    chat[0],
    user,
    reply(longOutput),
    { $set: { messages: [user, reply(masked)] } },
    { id: "u2", timestamp: "2026-11-02T10:01:00.000Z", type: "user", content: [{ text: "Thanks." }] },
  ];
  const session = loadSession(records.map((r) => JSON.stringify(r)).join("\n") + "\n", { strict: true });

  it("is no compaction; the context sends the masked output, marked as the agent's own omission, and the full one stays in the original", () => {
    expect(session.recordedCompactions(null)).toEqual([]);
    const recorded = session.recordedContext(null);
    const sent = recorded.messages.find((m) => m.role === "toolResult")!;
    expect(sent.meta.agentOmission).toEqual({ marker: "gemini-masked-tool-output", savedTo: `${SIDECAR_DIR}/run_shell_command_m1.txt`, omittedLines: 20 });
    expect(recorded.messages.map((m) => m.meta.id ?? m.meta.toolCallId)).toEqual(["u1", "g1", "m1", "u2"]);
    const original = session.branch(null).find((m) => m.role === "toolResult")!;
    expect(original.blocks).toEqual([expect.objectContaining({ text: longOutput })]);
    // The full output no longer reaches the model; the user turn, sent as it was, still does.
    expect(recorded.droppedMessageIds).toContain(original.id);
    expect(recorded.droppedMessageIds).not.toContain("u1");
  });
});

describe("discoverSessions: Gemini CLI saved tool outputs", () => {
  const file = (path: string, bytes = 100): ListedFile => ({ path, bytes, mtimeMs: 1_700_000_000_000 });
  const root = ".gemini/tmp/ab12";

  it("join the chat whose file name ends in the first 8 characters of their session id, as sidecars", () => {
    const found = discoverSessions([
      file(`${root}/chats/session-2026-11-02T10-00-7c1e2f3a.jsonl`, 1000),
      file(`${root}/chats/session-2026-11-02T11-00-99990000.jsonl`, 10),
      file(`${root}/tool-outputs/session-${SESSION_ID}/run_shell_command_c1.txt`, 100_000),
      file(`${root}/tool-outputs/session-${SESSION_ID}/grep_c2.txt`, 50_000),
    ]);
    expect(found.sessions.map((s) => [s.path, s.agent, s.files.map((f) => f.role)])).toEqual([
      [`${root}/chats/session-2026-11-02T10-00-7c1e2f3a.jsonl`, "gemini", ["session", "sidecar", "sidecar"]],
      [`${root}/chats/session-2026-11-02T11-00-99990000.jsonl`, "gemini", ["session"]],
    ]);
    expect(found.sessions[0]!.bytes).toBe(151_000);
    expect(found.skipped).toEqual([]);
  });

  it("also join a chat whose name carries a collision counter (session-<time>-<n>-<id8>.jsonl)", () => {
    const found = discoverSessions([file(`${root}/chats/session-2026-11-02T10-00-1-7c1e2f3a.jsonl`), file(`${root}/tool-outputs/session-${SESSION_ID}/grep_c2.txt`)]);
    expect(found.sessions[0]!.files.map((f) => f.role)).toEqual(["session", "sidecar"]);
  });

  it("skip, with the reason, outputs whose chat is absent and older outputs not filed under a session", () => {
    const found = discoverSessions([file(`${root}/tool-outputs/session-${SESSION_ID}/grep_c2.txt`), file(`${root}/tool_output/write_file_35.txt`)]);
    expect(found.sessions).toEqual([]);
    expect(found.skipped).toEqual([
      { path: `${root}/tool-outputs/session-${SESSION_ID}/grep_c2.txt`, reason: `a Gemini CLI saved tool output whose chat (session ${SESSION_ID}) is not in the folder` },
      { path: `${root}/tool_output/write_file_35.txt`, reason: "a Gemini CLI saved tool output of an older release, not filed under one session" },
    ]);
  });
});

describe("loadSessionFiles: a chat handed over with its saved tool outputs", () => {
  const encode = (value: string) => new TextEncoder().encode(value);
  const chatFile = { name: "ab12/chats/session-2026-11-02T10-00-7c1e2f3a.jsonl", bytes: encode(text) };
  const sidecar = (name: string) => ({ name, bytes: encode("PASS a\n".repeat(1000)) });

  it("reads the chat and leaves the sidecars out (newer per-session folder, older per-project one, either separator)", () => {
    const session = loadSessionFiles([chatFile, sidecar(`ab12/tool-outputs/session-${SESSION_ID}/run_shell_command_c1.txt`), sidecar("ab12\\tool_output\\grep_7.txt")], {
      strict: true,
    });
    expect(session.format).toBe("gemini");
    expect(session.branch(null).map((m) => m.id)).toEqual(
      loadSession(text, { strict: true })
        .branch(null)
        .map((m) => m.id),
    );
  });

  it("refuses sidecars without their session, saying so", () => {
    expect(() => loadSessionFiles([sidecar(`ab12/tool-outputs/session-${SESSION_ID}/grep_c2.txt`)])).toThrow("1 saved tool output file(s) and no session file");
  });
});
