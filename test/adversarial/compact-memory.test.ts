/**
 * `compact` of a Pi, Claude Code or Codex file holds neither the session nor
 * its checkpoint: the file is read once for its outline and once more for its
 * messages, each compacted and written as it comes, the archive spooled
 * beside the output (core/compact-stream.ts). A composed session of about
 * 130 MB in each format (96 tool results of 1 MB, each after an assistant
 * turn with 256 KB of thinking) compacts in a heap of 64 MB, where the
 * session alone cannot fit, and its checkpoint verifies. A file that changes between the two reads is refused,
 * leaving no output and no scratch file.
 */
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactFileStreamed } from "../../core/cli/compact-file.ts";
import { readSessionFile } from "../../core/cli/input.ts";
import { streamableEntries } from "../../core/compact-stream.ts";
import { runCli } from "../helpers/cli.ts";

const TURNS = 96;
const OUTPUT_CHARS = 1024 * 1024;
const THINKING_CHARS = 256 * 1024;
const HEAP_MB = 64;

const temp = mkdtempSync(join(tmpdir(), "si-compact-memory-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const FORMATS = ["pi", "claude", "codex"] as const;
const sessionFile = (format: string) => join(temp, `large-${format}.jsonl`);

beforeAll(async () => {
  const output = "the tool printed this line again\n".repeat(OUTPUT_CHARS / 32);
  const thinking = "and the model thought about it\n".repeat(THINKING_CHARS / 32);
  for (const format of FORMATS) {
    const out = createWriteStream(sessionFile(format));
    const write = async (line: unknown) => {
      if (!out.write(JSON.stringify(line) + "\n")) await once(out, "drain");
    };
    let parent: string | null = null;
    const pi = async (id: string, message: unknown) => {
      await write({ type: "message", id, parentId: parent, timestamp: "2026-01-01T00:00:01.000Z", message });
      parent = id;
    };
    const claude = async (uuid: string, type: string, message: unknown) => {
      await write({ parentUuid: parent, isSidechain: false, sessionId: "large", cwd: "/work", version: "2.1.30", uuid, timestamp: "t", type, message });
      parent = uuid;
    };
    const codex = async (payload: unknown) => write({ timestamp: "t", type: "response_item", payload });
    if (format === "pi") await write({ type: "session", version: 3, id: "large", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work" });
    if (format === "codex") await write({ timestamp: "t", type: "session_meta", payload: { id: "large", cwd: "/work", cli_version: "0.146.0" } });
    for (let i = 0; i < TURNS; i++) {
      if (format === "pi") {
        await pi(`u${i}`, { role: "user", content: `Turn ${i}: read file ${i}.` });
        await pi(`a${i}`, {
          role: "assistant",
          content: [
            { type: "thinking", thinking },
            { type: "text", text: `Reading file ${i}.` },
            { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}` } },
          ],
        });
        await pi(`r${i}`, { role: "toolResult", toolCallId: `c${i}`, toolName: "read", isError: false, content: [{ type: "text", text: output }] });
      } else if (format === "codex") {
        await codex({ type: "message", role: "user", content: [{ type: "input_text", text: `Turn ${i}: read file ${i}.` }] });
        await codex({ type: "reasoning", id: `rs${i}`, summary: [{ type: "summary_text", text: thinking }] });
        await codex({ type: "message", role: "assistant", content: [{ type: "output_text", text: `Reading file ${i}.` }] });
        await codex({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["cat", `f${i}`] }), call_id: `c${i}` });
        await codex({ type: "function_call_output", call_id: `c${i}`, output: output });
      } else {
        await claude(`u${i}`, "user", { role: "user", content: `Turn ${i}: read file ${i}.` });
        await claude(`a${i}`, "assistant", {
          id: `msg${i}`,
          role: "assistant",
          content: [
            { type: "thinking", thinking, signature: "s" },
            { type: "text", text: `Reading file ${i}.` },
            { type: "tool_use", id: `c${i}`, name: "Read", input: { path: `f${i}` } },
          ],
        });
        await claude(`r${i}`, "user", { role: "user", content: [{ type: "tool_result", tool_use_id: `c${i}`, content: output }] });
      }
    }
    out.end();
    await once(out, "finish");
  }
}, 60_000);

describe.each(FORMATS)("compact of a %s session larger than its heap", (format) => {
  const smallHeap = { ...process.env, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` };

  it(`${TURNS} MB of tool output and ${TURNS / 4} MB of thinking compact in a ${HEAP_MB} MB heap, and the checkpoint verifies`, () => {
    const checkpoint = join(temp, `large-${format}.cp.json`);
    const compacted = runCli(["compact", sessionFile(format), "--no-token-counts", "--output", checkpoint], smallHeap);
    expect(compacted.stderr).toBe("");
    expect(compacted.status).toBe(0);
    // Nothing left beside the output: neither the .partial nor the archive's scratch folder.
    expect(readdirSync(temp).filter((name) => name.startsWith(".") || name.endsWith(".partial"))).toEqual([]);
    const tail = readFileSync(checkpoint, "utf8").slice(-400);
    expect(tail).toMatch(/"stats":\{"proseSegments":192,"proseVerbatim":192,"payloads":192,/);
    const verified = runCli(["verify", checkpoint], smallHeap);
    expect(verified.stderr).toBe("");
    expect(JSON.parse(verified.stdout)).toMatchObject({ payloads: 2 * TURNS, mismatches: 0, ok: true });
    rmSync(checkpoint);
  }, 120_000);
});

describe("a session file that changes between compact's two reads", () => {
  it("is refused, naming the file, with no output and no scratch file left", async () => {
    const small = join(temp, "small.jsonl");
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" },
      { type: "message", id: "a", parentId: null, message: { role: "user", content: "hello" } },
      { type: "message", id: "b", parentId: "a", message: { role: "toolResult", toolCallId: "c", content: [{ type: "text", text: "out" }] } },
    ];
    writeFileSync(small, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const read = readSessionFile({ command: "compact", positional: [small], flags: new Map() }, undefined, { outline: true });
    expect(read.outlined).toBe(true);
    const entries = streamableEntries(read.session, null)!;
    // The agent appends a line after the first read.
    writeFileSync(small, lines.map((line) => JSON.stringify(line)).join("\n") + '\n{"type":"label","id":"l","parentId":"b","label":"x"}\n');
    const output = join(temp, "small.cp.json");
    const job = { outline: read.session, source: { name: "small.jsonl", bytes: read.bytes, sha256: read.sha256 }, entries, leafId: null, countTokens: false };
    await expect(compactFileStreamed(small, job, output)).rejects.toThrow(`${small}:0: changed while it was being compacted`);
    expect(readdirSync(temp).filter((name) => name.startsWith("small.cp") || name.startsWith(".session-inspector"))).toEqual([]);
  });
});
