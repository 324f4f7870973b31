/**
 * OpenCode's own store (issue #30): `opencode.db` read with SQLite in
 * WebAssembly. A session reads the same from the database as from its
 * export (the real exported session, written into OpenCode's tables as
 * OpenCode writes them); the latest top-level session opens unless one is
 * asked for; a database that is not OpenCode's, or not a database, is
 * refused with what was found; the CLI reads it like any session file.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SqlJsStatic } from "sql.js";
import { isSqliteFile } from "../../core/sqlite/engine.ts";
import { loadOpenCodeDatabase } from "../../core/sqlite/opencode-session.ts";
import { loadSession } from "../../core/session.ts";
import type { Session } from "../../core/model.ts";
import { runCli } from "../helpers/cli.ts";
import { itWithFixtures, readFixture } from "../helpers/fixtures.ts";
import { composedExport, opencodeDatabase, testSqlite, type ExportShape } from "../helpers/opencode-db.ts";

let engine: SqlJsStatic;
beforeAll(async () => {
  engine = await testSqlite();
});

/** What the product shows of a session: entries, the default branch, its compactions and usage. */
function shape(session: Session): unknown {
  const leaf = session.defaultLeafId;
  return {
    format: session.format,
    entries: session.entries.map((e) => [e.id, e.parentId, e.type, e.messages]),
    branch: session.branch(leaf),
    compactions: session.recordedCompactions(leaf).map((c) => [c.index, c.kind, c.droppedMessageIds, c.after.map((m) => m.id)]),
    recorded: session.recordedContext(leaf).messages.map((m) => m.id),
    usage: session.usage(leaf).turns,
  };
}

describe("an OpenCode database", () => {
  it("opens the latest top-level session, says how many it holds, and opens another by id", () => {
    const older = composedExport("ses_a", "older");
    const newer = composedExport("ses_b", "newer");
    const subagent = composedExport("ses_c", "subagent", "ses_b");
    const bytes = opencodeDatabase(engine, [older, newer, subagent]);
    expect(isSqliteFile(bytes)).toBe(true);
    const opened = loadOpenCodeDatabase(engine, bytes);
    // The subagent's session was updated last, but a user opening the database means the top-level one.
    expect(opened.chosen.id).toBe("ses_b");
    expect(opened.sessions.map((s) => s.id)).toEqual(["ses_c", "ses_b", "ses_a"]);
    expect(opened.sessions.find((s) => s.id === "ses_c")!.parentId).toBe("ses_b");
    expect(opened.session.warnings[0]!.message).toMatch(/holds 3 sessions; showing "newer" \(ses_b/);
    const fromExport = loadSession(JSON.stringify(newer));
    expect(shape(opened.session)).toEqual(shape(fromExport));
    const asked = loadOpenCodeDatabase(engine, bytes, { sessionId: "ses_a" });
    expect(asked.session.branch(null).map((m) => m.id)).toEqual(
      loadSession(JSON.stringify(older))
        .branch(null)
        .map((m) => m.id),
    );
    expect(() => loadOpenCodeDatabase(engine, bytes, { sessionId: "ses_zz" })).toThrow(/no session "ses_zz"/);
  });

  it("says when the newest writes may be in the -wal file beside it (a database in WAL mode)", () => {
    const bytes = opencodeDatabase(engine, [composedExport("ses_a", "one")]);
    expect(loadOpenCodeDatabase(engine, bytes).session.warnings).toEqual([]);
    const wal = bytes.slice();
    wal[18] = 2;
    wal[19] = 2;
    expect(loadOpenCodeDatabase(engine, wal).session.warnings[0]!.message).toMatch(/WAL mode: what OpenCode wrote since its last checkpoint is in the opencode\.db-wal file/);
  });

  it("refuses a database that is not OpenCode's, naming its tables, and bytes that are not a database", () => {
    const db = new engine.Database();
    db.run("CREATE TABLE notes (id TEXT, body TEXT)");
    const other = db.export();
    db.close();
    expect(() => loadOpenCodeDatabase(engine, other)).toThrow(/without OpenCode's "session" table \(tables: notes\)/);
    const damaged = new Uint8Array(4096);
    damaged.set(new TextEncoder().encode("SQLite format 3\u0000"));
    expect(() => loadOpenCodeDatabase(engine, damaged)).toThrow(/SQLite database/);
  });

  itWithFixtures("a real OpenCode session reads the same from the database as from its export", () => {
    const exported = JSON.parse(new TextDecoder().decode(readFixture("opencode/savekirk__session-bridge__opencode-export-ses_277daa810ffe.json"))) as ExportShape;
    const opened = loadOpenCodeDatabase(engine, opencodeDatabase(engine, [exported]));
    const fromExport = loadSession(JSON.stringify(exported));
    expect(opened.session.branch(null).length).toBeGreaterThan(50);
    expect(shape(opened.session)).toEqual(shape(fromExport));
  });

  it("the CLI inspects and audits it like a session file, --session choosing one", () => {
    const dir = mkdtempSync(join(tmpdir(), "opencode-db-"));
    const file = join(dir, "opencode.db");
    writeFileSync(file, opencodeDatabase(engine, [composedExport("ses_a", "older"), composedExport("ses_b", "newer")]));
    const inspected = runCli(["inspect", file]);
    expect(inspected.status).toBe(0);
    expect((JSON.parse(inspected.stdout) as { format: string }).format).toBe("opencode");
    // Which of the database's sessions is shown, and how to open another, on stderr as every reading warning.
    expect(inspected.stderr).toMatch(
      /holds 2 sessions; showing "newer" \(ses_b, the most recently updated with messages\); the app's Session picker and the CLI's --session ID open another/,
    );
    const asked = runCli(["inspect", file, "--session", "ses_a"]);
    expect(asked.status).toBe(0);
    expect(asked.stderr).toContain('showing "older" (ses_a, the one asked for)');
    const audit = runCli(["audit", file, "--json"]);
    expect(audit.status).toBe(0);
    const missing = runCli(["inspect", file, "--session", "nope"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/opencode\.db:0: no session "nope" in this database/);
  });
});

describe("a database where only a session file is read", () => {
  it("loadSession (which reads session files only) says what it is and where it is read, instead of failing on its bytes", async () => {
    const bytes = opencodeDatabase(engine ?? (await testSqlite()), [composedExport("ses_a", "one")]);
    expect(() => loadSession(bytes)).toThrow(
      /a SQLite database \(OpenCode's opencode\.db\?\): this command reads session files only; open the database in the app, with inspect or audit FILE, or in a library/,
    );
  });
});
