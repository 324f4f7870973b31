/**
 * The library's main-thread pieces: which dropped files open as one session,
 * the table's order and filter, and a multi-file session (a Cline task
 * folder) loaded through the engine's `files` source.
 */
import { describe, expect, it } from "vitest";
import type { LibrarySessionRow } from "../../core/library/rows.ts";
import { displayRows } from "../../src/components/library/LibraryTable.tsx";
import { oneSessionOf } from "../../src/components/library/pick-files.ts";
import { SessionEngine } from "../../src/worker/engine.ts";
import { cancelIndexing, closeLibrary, openLibrary, useLibrary, type PickedFile } from "../../src/store/library.ts";
import { clineTask } from "../helpers/composed-sessions.ts";

const file = (path: string, text = "{}"): PickedFile => ({ path, file: new File([text], path.split("/").pop()!, { lastModified: 1 }) });

describe("dropped files", () => {
  it("opens a Cline task's files, or a Claude session with its subagents, as one session", () => {
    const task = [file("api_conversation_history.json"), file("ui_messages.json"), file("task_metadata.json")];
    expect(oneSessionOf(task)?.map((f) => f.path)).toEqual(["api_conversation_history.json", "ui_messages.json", "task_metadata.json"]);
    const claude = [file("agent-a1.jsonl"), file("0b5c2f9e-1111-4222-8333-444455556666.jsonl"), file("agent-a1.meta.json")];
    expect(oneSessionOf(claude)?.map((f) => f.path)).toEqual(["0b5c2f9e-1111-4222-8333-444455556666.jsonl", "agent-a1.jsonl", "agent-a1.meta.json"]);
  });

  it("opens a database with its -wal (and not its -shm, a lock) as one session, the database first", () => {
    const store = [file("opencode.db-shm"), file("opencode.db-wal"), file("opencode.db")];
    expect(oneSessionOf(store)?.map((f) => f.path)).toEqual(["opencode.db", "opencode.db-wal"]);
    // A -wal with other sessions beside it is a library of them, not a database.
    expect(oneSessionOf([...store, file("rollout-1.jsonl"), file("rollout-2.jsonl")])).toBeNull();
  });

  it("makes a library of several sessions", () => {
    expect(oneSessionOf([file("a/rollout-1.jsonl"), file("a/rollout-2.jsonl")])).toBeNull();
  });
});

const row = (path: string, factsDropped: number, bytes: number, agent = "pi"): LibrarySessionRow => ({
  kind: "session",
  path,
  agent,
  format: agent,
  project: path.split("/")[0]!,
  date: "2025-01-01T00:00:00Z",
  dateFrom: "records",
  lastDate: null,
  durationMs: null,
  model: null,
  bytes,
  files: 1,
  messages: 1,
  tokens: 1,
  tokenizer: "",
  compactions: 1,
  worstCompaction: { index: 1, asked: 4, recorded: 4 - factsDropped, transparent: 4 },
  factsDropped,
  warnings: 0,
});

describe("the library table", () => {
  const sessions = [row("p/a.jsonl", 1, 300), row("q/b.jsonl", 3, 100, "claude"), row("p/c.jsonl", 2, 200)];
  const base = { sessions, pending: {}, compactions: {}, expanded: {}, filter: { agent: "", text: "" } };

  it("sorts by facts dropped, worst first, by default; by any column on request; pending rows last", () => {
    expect(displayRows({ ...base, sort: { column: "factsDropped", descending: true } }).rows.map((r) => r.row.path)).toEqual(["q/b.jsonl", "p/c.jsonl", "p/a.jsonl"]);
    expect(displayRows({ ...base, sort: { column: "bytes", descending: false } }).rows.map((r) => r.row.path)).toEqual(["q/b.jsonl", "p/c.jsonl", "p/a.jsonl"]);
    const pending = displayRows({ ...base, pending: { "q/b.jsonl": true }, sort: { column: "factsDropped", descending: true } });
    expect(pending.rows.map((r) => r.row.path)).toEqual(["p/c.jsonl", "p/a.jsonl", "q/b.jsonl"]);
  });

  it("filters by agent and by text, and expands a session into its compactions", () => {
    expect(displayRows({ ...base, filter: { agent: "claude", text: "" }, sort: { column: "factsDropped", descending: true } }).shown).toBe(1);
    expect(displayRows({ ...base, filter: { agent: "", text: "P/" }, sort: { column: "factsDropped", descending: true } }).shown).toBe(2);
    const compaction = { kind: "compaction", path: "p/a.jsonl", index: 1 } as never;
    const expanded = displayRows({ ...base, compactions: { "p/a.jsonl": [compaction] }, expanded: { "p/a.jsonl": true }, sort: { column: "factsDropped", descending: true } });
    expect(expanded.rows.map((r) => r.kind)).toEqual(["session", "session", "session", "compaction"]);
  });
});

describe("a session of several files in the engine", () => {
  it("loads a Cline task folder from its File objects", async () => {
    const files = clineTask().map((part) => ({ name: `tasks/t1/${part.name}`, file: new File([part.bytes as Uint8Array<ArrayBuffer>], part.name) }));
    const engine = new SessionEngine();
    const result = await engine.load(
      { kind: "files", name: "api_conversation_history.json", files },
      { strategy: "transparent", leafId: null, options: {} },
      { progress: () => undefined, checkCancelled: () => undefined },
    );
    expect(result.session.format).toBe("cline");
    expect(result.view.original.count).toBeGreaterThan(2);
  });
});

describe("opening a folder", () => {
  it("lists the rows from the paths at once, and a cancel while the sizes are read stops before anything is indexed", async () => {
    const picked = [file("f/.pi/agent/sessions/--a--/one.jsonl"), file("f/.pi/agent/sessions/--a--/two.jsonl"), file("f/notes.md")];
    const opening = openLibrary(picked, "f");
    // Listed synchronously, before a single size was asked for.
    const listed = useLibrary.getState();
    expect(listed.sessions.map((r) => r.path)).toEqual(["f/.pi/agent/sessions/--a--/one.jsonl", "f/.pi/agent/sessions/--a--/two.jsonl"]);
    expect(listed.progress?.listing).toEqual({ read: 0, total: 3 });
    cancelIndexing();
    await opening;
    const after = useLibrary.getState();
    expect(after.progress).toMatchObject({ cancelled: true, listing: null, done: 0 });
    expect(after.sessions).toEqual([]);
    closeLibrary();
  });
});
