/** The CLI reads a session folder: a Cline task folder, and a Claude Code session's subagent folder beside its session file. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { clineTask } from "../helpers/composed-sessions.ts";
import { fixturePath, itWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-folder-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("a folder on the command line", () => {
  it("inspect reads a Cline task folder as one session", () => {
    const task = join(temp, "tasks", "1700000000000");
    mkdirSync(task, { recursive: true });
    for (const file of clineTask()) writeFileSync(join(task, file.name.split("/").pop()!), file.bytes);
    const result = runCli(["inspect", task]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ format: "cline", branchMessages: 6, recordedContextMessages: 4, toolCalls: 2 });
  });

  it("a Claude Code <sessionId>/ folder brings its sibling session file; the subagent is a leaf", () => {
    const line = (record: object) => JSON.stringify({ sessionId: "s9", version: "2.1.40", ...record });
    writeFileSync(
      join(temp, "s9.jsonl"),
      [
        line({ type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "Check the docs." } }),
        line({
          type: "assistant",
          uuid: "a1",
          parentUuid: "u1",
          message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "tk", name: "Agent", input: { prompt: "Read docs/." } }] },
        }),
        line({
          type: "user",
          uuid: "u2",
          parentUuid: "a1",
          toolUseResult: { agentId: "q1" },
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tk", content: "Docs are fine." }] },
        }),
      ].join("\n"),
    );
    mkdirSync(join(temp, "s9", "subagents"), { recursive: true });
    writeFileSync(
      join(temp, "s9", "subagents", "agent-q1.jsonl"),
      [
        line({ type: "user", uuid: "q-u", parentUuid: null, isSidechain: true, message: { role: "user", content: "Read docs/." } }),
        line({
          type: "assistant",
          uuid: "q-a",
          parentUuid: "q-u",
          isSidechain: true,
          message: { id: "m2", role: "assistant", content: [{ type: "text", text: "Read 3 files." }] },
        }),
      ].join("\n"),
    );
    const summary = JSON.parse(runCli(["inspect", join(temp, "s9")]).stdout);
    expect(summary).toMatchObject({ format: "claude", branchMessages: 3 });
    expect(summary.leaves).toContain("q-a");
  });

  it("a folder with no session files says so", () => {
    mkdirSync(join(temp, "empty"));
    expect(runCli(["inspect", join(temp, "empty")]).stderr).toMatch(/is a directory with no session file in it/);
  });

  itWithFixtures("a folder that holds one session of any agent opens as it (a Gemini CLI project folder); one of several names them", () => {
    const project = join(temp, "gemini-project");
    mkdirSync(join(project, "chats"), { recursive: true });
    const chat = fixturePath("gemini/savekirk__session-bridge__gemini-session-cdb14b05.json");
    copyFileSync(chat, join(project, "chats", "session-2026-11-02T10-00-cdb14b05.json"));
    writeFileSync(join(project, "notes.txt"), "not a session\n");
    const fromFolder = runCli(["inspect", project]);
    expect(fromFolder.status).toBe(0);
    expect(JSON.parse(fromFolder.stdout)).toEqual(JSON.parse(runCli(["inspect", chat]).stdout));
    copyFileSync(chat, join(project, "chats", "session-2026-11-03T10-00-cdb14b06.json"));
    expect(runCli(["inspect", project]).stderr).toMatch(/is a directory of 2 sessions \(chats\/session-2026-11-02T10-00-cdb14b05\.json, .*\): name one, or run `audit /);
  });
});
