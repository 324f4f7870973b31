/**
 * `tsx scripts/compose-wal-pair.ts`: writes test/composed/opencode-wal/, an
 * OpenCode database and the `-wal` file beside it as SQLite itself leaves
 * them while OpenCode is running: the database holds session "ses_a" (checkpointed),
 * the log two committed writes since (session "ses_b" added, then "ses_a"
 * renamed). Made by the real SQLite (the `sqlite3` command-line shell), the
 * files copied while its connection is still open (on close SQLite folds the
 * log in and removes it), so the tests read a log our own code did not write.
 * The words are the project's own (test/helpers/opencode-db.ts); run again
 * only to change them, and commit both files.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { queryRows } from "../core/sqlite/engine.ts";
import { composedExport, opencodeDatabase, testSqlite } from "../test/helpers/opencode-db.ts";

const out = resolve(import.meta.dirname, "../test/composed/opencode-wal");
const engine = await testSqlite();
const older = composedExport("ses_a", "older");
const newer = composedExport("ses_b", "newer");

// The rows session "ses_b" adds, as OpenCode's tables hold them (the helper writes them), to insert through sqlite3.
const both = new engine.Database(opencodeDatabase(engine, [older, newer]));
const literal = (value: unknown) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`);
const inserts = ["session", "message", "part"].flatMap((table) =>
  queryRows(both, `SELECT * FROM ${table} WHERE ${table === "session" ? "id" : "session_id"} = 'ses_b'`).map(
    (row) => `INSERT INTO ${table} VALUES (${Object.values(row).map(literal).join(", ")});`,
  ),
);
both.close();

const work = mkdtempSync(join(tmpdir(), "opencode-wal-"));
const database = join(work, "opencode.db");
writeFileSync(database, opencodeDatabase(engine, [older]));
mkdirSync(out, { recursive: true });
const script = [
  "PRAGMA journal_mode=WAL;",
  "PRAGMA wal_autocheckpoint=0;",
  "BEGIN;",
  ...inserts,
  "COMMIT;",
  "UPDATE session SET title = 'older, renamed', time_updated = 1900000000000 WHERE id = 'ses_a';",
  `.shell cp ${database} ${database}-wal ${out}/`,
  ".quit",
].join("\n");
execFileSync("sqlite3", [database], { input: script, stdio: ["pipe", "inherit", "inherit"] });
rmSync(work, { recursive: true, force: true });
console.log(`wrote ${out}/opencode.db and opencode.db-wal`);
