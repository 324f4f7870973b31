/**
 * An OpenCode database in a library (issue #30): every session it holds is a
 * row of its own, read with the `-wal` file beside it, by the one indexing
 * function the app's workers and the CLI share; `audit <folder>` counts them
 * as sessions. The pair in test/composed/opencode-wal was written by the real
 * SQLite (scripts/compose-wal-pair.ts): "ses_a" checkpointed into the
 * database, "ses_b" and a rename of "ses_a" only in the log.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSessions } from "../../../core/library/discover.ts";
import { indexSession } from "../../../core/library/index-session.ts";
import { indexedSessions, rowsInOrder } from "../../../core/library/rows.ts";
import { runCli } from "../../helpers/cli.ts";
import { composedExport, opencodeDatabase, testSqlite } from "../../helpers/opencode-db.ts";

const pair = resolve(import.meta.dirname, "../../composed/opencode-wal");
const read = async (path: string) => new Uint8Array(readFileSync(join(pair, path.slice(path.lastIndexOf("/") + 1))));
const listed = (names: string[]) => names.map((name) => ({ path: `opencode/${name}`, bytes: readFileSync(join(pair, name)).length, mtimeMs: 1_700_000_000_000 }));

describe("indexing an OpenCode database", () => {
  it("gives one row per session it holds, the log's writes read with it", async () => {
    const [unit] = discoverSessions(listed(["opencode.db", "opencode.db-wal"])).sessions;
    const rows = await indexSession(unit!, read, { sqlite: testSqlite });
    const sessions = indexedSessions(rows).map(({ session }) => session);
    expect(sessions.map((s) => [s.path, s.database?.sessionId, s.database?.title, s.agent, s.format])).toEqual([
      ["opencode/opencode.db#ses_a", "ses_a", "older, renamed", "opencode", "opencode"],
      ["opencode/opencode.db#ses_b", "ses_b", "newer", "opencode", "opencode"],
    ]);
    expect(sessions.every((s) => s.messages > 0 && s.database?.path === "opencode/opencode.db" && s.warnings === 0)).toBe(true);
    // Each session's rows follow its own row, in the order `audit <folder> --json` prints.
    expect(rowsInOrder(rows).filter((row) => row.kind === "session")).toEqual(sessions);
  });

  // No -wal in the folder: SQLite removes it when the last connection closes cleanly, so nothing is missing and no warning is due.
  it("without its log holds what was checkpointed, with no warning (the log was looked for)", async () => {
    const [unit] = discoverSessions(listed(["opencode.db"])).sessions;
    const sessions = indexedSessions(await indexSession(unit!, read, { sqlite: testSqlite })).map(({ session }) => session);
    expect(sessions.map((s) => [s.database?.sessionId, s.database?.title, s.warnings])).toEqual([["ses_a", "older", 0]]);
  });

  it("is skipped with the reason where no SQLite engine is handed in, or the file is damaged", async () => {
    const [unit] = discoverSessions(listed(["opencode.db", "opencode.db-wal"])).sessions;
    expect(await indexSession(unit!, read)).toEqual({ skipped: { kind: "skipped", path: "opencode/opencode.db", reason: expect.stringContaining("no SQLite engine") } });
    const damaged = async (path: string) => {
      const bytes = await read(path);
      return path.endsWith("-wal") ? bytes.slice(0, 40).fill(7, 0, 4) : bytes;
    };
    const rows = await indexSession(unit!, damaged, { sqlite: testSqlite });
    expect(rows).toEqual({ skipped: { kind: "skipped", path: "opencode/opencode.db", reason: expect.stringContaining("-wal file") } });
  });
});

describe("a session of a database that cannot be read", () => {
  it("is skipped on its own, with why; the database's other sessions are listed, and audit <folder> counts each where it belongs", async () => {
    const engine = await testSqlite();
    const db = new engine.Database(opencodeDatabase(engine, [composedExport("ses_a", "fine"), composedExport("ses_b", "broken")]));
    db.run("UPDATE message SET data = '{' WHERE session_id = 'ses_b'");
    const bytes = db.export();
    db.close();
    const [unit] = discoverSessions([{ path: "opencode.db", bytes: bytes.length, mtimeMs: 1_700_000_000_000 }]).sessions;
    const rows = await indexSession(unit!, async () => bytes, { sqlite: testSqlite });
    expect(indexedSessions(rows).map(({ session }) => session.path)).toEqual(["opencode.db#ses_a"]);
    expect(rowsInOrder(rows).filter((row) => row.kind === "skipped")).toEqual([
      { kind: "skipped", path: "opencode.db#ses_b", reason: expect.stringContaining("its data is not a JSON object") },
    ]);

    const temp = mkdtempSync(join(tmpdir(), "si-library-db-broken-"));
    try {
      writeFileSync(join(temp, "opencode.db"), bytes);
      const result = runCli(["audit", temp, "--json", "--no-cache"]);
      expect(result.status).toBe(0);
      const printed = result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { kind: string; path: string });
      // The skipped come after every session, as for any folder.
      expect(printed.map((row) => [row.kind, row.path])).toEqual([
        ["session", "opencode.db#ses_a"],
        ["skipped", "opencode.db#ses_b"],
      ]);
      expect(result.stderr).toMatch(/^1 sessions, 0 recorded compactions, 1 skipped;/m);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});

describe("audit <folder> with an OpenCode database", () => {
  it("lists every session of the database and counts them as sessions", () => {
    const temp = mkdtempSync(join(tmpdir(), "si-library-db-"));
    try {
      const root = join(temp, "share", "opencode");
      mkdirSync(root, { recursive: true });
      for (const name of ["opencode.db", "opencode.db-wal"]) copyFileSync(join(pair, name), join(root, name));
      writeFileSync(join(root, "opencode.db-shm"), new Uint8Array(32768));
      const result = runCli(["audit", join(temp, "share"), "--json", "--no-cache"]);
      expect(result.status).toBe(0);
      const rows = result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { kind: string; path: string; reason?: string });
      expect(rows.map((row) => [row.kind, row.path])).toEqual([
        ["session", "opencode/opencode.db#ses_a"],
        ["session", "opencode/opencode.db#ses_b"],
        ["skipped", "opencode/opencode.db-shm"],
      ]);
      expect(result.stderr).toMatch(/^2 sessions, 0 recorded compactions, 1 skipped;/m);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
