import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSessions, layoutOf, type ListedFile } from "../../../core/library/discover.ts";
import { walkFolder } from "../../../core/cli/library-walk.ts";

const file = (path: string, bytes = 100, mtimeMs = 1_700_000_000_000): ListedFile => ({ path, bytes, mtimeMs });

describe("layoutOf: the agent and project a file's place names", () => {
  it.each([
    [".claude/projects/-home-me-app/0f8e3c1a-1111-2222-3333-444455556666.jsonl", "claude", "-home-me-app"],
    ["sessions/2026/11/02/rollout-2026-11-02T10-00-00-abc.jsonl", "codex", null],
    ["sessions/2026/11/02/rollout-2026-11-02T10-00-00-abc.jsonl.zst", "codex", null],
    [".pi/agent/sessions/--home-me-app--/2026-11-02_abc.jsonl", "pi", "home/me/app"],
    [".gemini/tmp/5f3a/chats/session-2026-11-02T10-00-abc.json", "gemini", "5f3a"],
    [".copilot/session-state/abc/events.jsonl", "copilot", null],
    ["misc/notes.jsonl", "unknown", "misc"],
    ["work/app/.aider.chat.history.md", "aider", "app"],
    [".qwen/projects/-home-dev-calc/chats/3f2a.jsonl", "qwen", "-home-dev-calc"],
    [".cursor/projects/Users-me-app/agent-transcripts/e13f/e13f.jsonl", "cursor", "Users-me-app"],
  ])("%s → %s", (path, agent, project) => {
    expect(layoutOf(path)).toEqual({ agent, project });
  });
});

describe("discoverSessions", () => {
  it("takes Aider's chat history by its name, and no other Markdown", () => {
    const found = discoverSessions([file("app/.aider.chat.history.md"), file("app/README.md"), file("app/.aider.input.history")]);
    expect(found.sessions.map((s) => [s.path, s.agent])).toEqual([["app/.aider.chat.history.md", "aider"]]);
  });

  it("joins Claude Code subagents, their meta files and tool-result sidecars to the session that names their folder", () => {
    const root = ".claude/projects/p";
    const found = discoverSessions([
      file(`${root}/s1.jsonl`, 1000),
      file(`${root}/s1/subagents/agent-a1.jsonl`, 200, 1_700_000_000_500),
      file(`${root}/s1/subagents/agent-a1.meta.json`, 20),
      file(`${root}/s1/tool-results/toolu_1.txt`, 50),
      file(`${root}/s2.jsonl`, 10),
    ]);
    expect(found.sessions.map((s) => s.path)).toEqual([`${root}/s1.jsonl`, `${root}/s2.jsonl`]);
    const s1 = found.sessions[0]!;
    expect(s1.files.map((f) => f.role)).toEqual(["session", "subagent", "subagent-meta", "sidecar"]);
    expect(s1.bytes).toBe(1270);
    expect(s1.mtimeMs).toBe(1_700_000_000_500);
    expect(found.skipped).toEqual([]);
  });

  it("skips an orphan subagent with the reason", () => {
    const found = discoverSessions([file("p/gone/subagents/agent-x.jsonl")]);
    expect(found.sessions).toEqual([]);
    expect(found.skipped[0]!.reason).toMatch(/gone\.jsonl is not in the folder/);
  });

  it("reads a Cline/Roo/Kilo task folder as one session opened from its api_conversation_history.json", () => {
    const found = discoverSessions([
      file("tasks/1730000000000/api_conversation_history.json"),
      file("tasks/1730000000000/ui_messages.json"),
      file("tasks/1730000000000/task_metadata.json"),
      file("tasks/1730000000001/ui_messages.json"),
    ]);
    expect(found.sessions).toHaveLength(2);
    expect(found.sessions[0]).toMatchObject({ path: "tasks/1730000000000/api_conversation_history.json", agent: "cline", project: "1730000000000" });
    expect(found.sessions[0]!.files.map((f) => f.role)).toEqual(["session", "task-part", "task-part"]);
    // A folder that kept only its UI log is read from it (the conversation as shown).
    expect(found.sessions[1]).toMatchObject({ path: "tasks/1730000000001/ui_messages.json", agent: "cline", project: "1730000000001" });
    expect(found.skipped).toEqual([]);
  });

  it("reads a task folder without its history from its UI log, and skips one with neither, saying why", () => {
    const found = discoverSessions([file("tasks/1/ui_messages.json"), file("tasks/1/task_metadata.json"), file("tasks/2/task_metadata.json")]);
    expect(found.sessions.map((s) => s.path)).toEqual(["tasks/1/ui_messages.json"]);
    expect(found.skipped).toEqual([
      { path: "tasks/1/task_metadata.json", reason: "task metadata of a task folder without api_conversation_history.json (its UI log is read alone)" },
      { path: "tasks/2/task_metadata.json", reason: "part of a task folder without api_conversation_history.json or ui_messages.json" },
    ]);
  });

  it("reads the plain copy of a Codex rollout when the .zst copy is beside it", () => {
    const found = discoverSessions([file("s/rollout-a.jsonl"), file("s/rollout-a.jsonl.zst"), file("s/rollout-b.jsonl.zst")]);
    expect(found.sessions.map((s) => s.path)).toEqual(["s/rollout-a.jsonl", "s/rollout-b.jsonl.zst"]);
    expect(found.skipped.map((s) => s.path)).toEqual(["s/rollout-a.jsonl.zst"]);
  });

  it("skips what is not a session, saying why", () => {
    const found = discoverSessions([file("a/README.md"), file("a/Makefile"), file("a/empty.jsonl", 0), file("a/other.db"), file("b/opencode.db-wal")]);
    expect(found.skipped).toEqual([
      { path: "a/Makefile", reason: "not a session file (no extension)" },
      { path: "a/README.md", reason: "not a session file (.md)" },
      { path: "a/other.db", reason: "not a session file (.db)" },
      { path: "b/opencode.db-wal", reason: "a SQLite write-ahead log whose database is not in the folder" },
    ]);
    // An empty .jsonl is still a candidate: the reader says it is empty, at index time.
    expect(found.sessions.map((s) => s.path)).toEqual(["a/empty.jsonl"]);
  });

  it("takes OpenCode's and Kilo's databases (a channel's too) as units, each with its -wal; the -shm is no data", () => {
    const found = discoverSessions([
      file("opencode/opencode.db", 4096),
      file("opencode/opencode.db-wal", 8272, 1_700_000_000_500),
      file("opencode/opencode.db-shm", 32768),
      file("kilo/kilo.db"),
      file("beta/opencode-beta.db"),
    ]);
    expect(found.sessions.map((s) => [s.path, s.agent, s.files.map((f) => f.role)])).toEqual([
      ["beta/opencode-beta.db", "opencode", ["session"]],
      ["kilo/kilo.db", "opencode", ["session"]],
      ["opencode/opencode.db", "opencode", ["session", "database-log"]],
    ]);
    // The log's bytes and time are the unit's: a write to the log re-indexes the database.
    const opencode = found.sessions.find((s) => s.path === "opencode/opencode.db")!;
    expect([opencode.bytes, opencode.mtimeMs]).toEqual([4096 + 8272, 1_700_000_000_500]);
    expect(found.skipped).toEqual([{ path: "opencode/opencode.db-shm", reason: "SQLite's shared-memory index of the database beside it (no data of its own)" }]);
  });
});

describe("walkFolder", () => {
  it("lists files below the folder, follows links to folders inside it once, never a link out", () => {
    const outside = mkdtempSync(join(tmpdir(), "si-outside-"));
    writeFileSync(join(outside, "secret.jsonl"), "{}\n");
    const root = mkdtempSync(join(tmpdir(), "si-library-"));
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/s.jsonl"), "{}\n");
    symlinkSync(outside, join(root, "out"));
    symlinkSync(join(outside, "secret.jsonl"), join(root, "out-file.jsonl"));
    symlinkSync(join(root, "a"), join(root, "again"));
    symlinkSync(join(root, "a/b/s.jsonl"), join(root, "alias.jsonl"));
    const walk = walkFolder(root);
    expect(walk.listing.map((f) => f.path)).toEqual(["a/b/s.jsonl"]);
    const reasons = Object.fromEntries(walk.skipped.map((s) => [s.path, s.reason]));
    expect(reasons.out).toMatch(/link out of the chosen folder/);
    expect(reasons["out-file.jsonl"]).toMatch(/link out of the chosen folder/);
    expect(reasons["alias.jsonl"]).toMatch(/read in its own place/);
    expect(reasons.again).toBeUndefined();
  });
});
