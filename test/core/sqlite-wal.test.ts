/**
 * OpenCode's database read with the `-wal` file beside it (issue #30):
 * OpenCode runs SQLite in WAL mode, so its newest writes are in the log until
 * a checkpoint. The pair in test/composed/opencode-wal was written by the real
 * SQLite (scripts/compose-wal-pair.ts): one session checkpointed into the
 * database, then two committed writes in the log (a second session added, the
 * first renamed). Read with the log, the database holds what SQLite would
 * show; a log cut or damaged anywhere keeps exactly the writes committed
 * before the cut, never a half-written one.
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { SqlJsStatic } from "sql.js";
import { loadOpenCodeDatabase } from "../../core/sqlite/opencode-session.ts";
import { isWalMode, mergeWal } from "../../core/sqlite/wal.ts";
import { runCli } from "../helpers/cli.ts";
import { composedExport, opencodeDatabase, testSqlite } from "../helpers/opencode-db.ts";

const pair = resolve(import.meta.dirname, "../composed/opencode-wal");
const database = new Uint8Array(readFileSync(join(pair, "opencode.db")));
const wal = new Uint8Array(readFileSync(join(pair, "opencode.db-wal")));
const PAGE = 4096;
const FRAME = 24 + PAGE;
/** The log's bytes up to the end of its `frames`-th frame. */
const cutAfter = (frames: number) => wal.slice(0, 32 + frames * FRAME);

let engine: SqlJsStatic;
beforeAll(async () => {
  engine = await testSqlite();
});

const titles = (opened: ReturnType<typeof loadOpenCodeDatabase>) => opened.sessions.map((s) => s.title).sort();

describe("an OpenCode database with its write-ahead log", () => {
  it("is in WAL mode as SQLite left it, and without the log holds only what was checkpointed", () => {
    expect(isWalMode(database)).toBe(true);
    const alone = loadOpenCodeDatabase(engine, database);
    expect(titles(alone)).toEqual(["older"]);
    expect(alone.session.warnings[0]!.message).toMatch(/WAL mode: .*opencode\.db-wal file beside it, which was not handed in/);
  });

  it("read with the log, holds both committed writes, the added session as OpenCode wrote it", () => {
    const opened = loadOpenCodeDatabase(engine, database, { wal, sessionId: "ses_b" });
    expect(titles(opened)).toEqual(["newer", "older, renamed"]);
    expect(opened.wal).toEqual({ transactions: 2, frames: (wal.length - 32) / FRAME, ignoredFrames: 0 });
    expect(opened.session.warnings.map((w) => w.message).join("\n")).not.toMatch(/WAL mode/);
    // The same session written directly (no log) reads the same.
    const direct = loadOpenCodeDatabase(engine, opencodeDatabase(engine, [composedExport("ses_a", "older"), composedExport("ses_b", "newer")]), { sessionId: "ses_b" });
    expect(opened.session.branch(null)).toEqual(direct.session.branch(null));
    // The merged copy is no longer marked WAL: nothing will look for a log again.
    expect(isWalMode(mergeWal(database, wal).bytes)).toBe(false);
  });

  it("a log the caller looked for and did not find (SQLite removes it on a clean close) is no warning", () => {
    expect(
      loadOpenCodeDatabase(engine, database, { wal: null })
        .session.warnings.map((w) => w.message)
        .join("\n"),
    ).not.toMatch(/WAL mode/);
  });

  it("cut anywhere, keeps the writes committed before the cut and never a half-written one", () => {
    const frames = (wal.length - 32) / FRAME;
    expect(Number.isInteger(frames)).toBe(true);
    // The rename is the last frame (one page): cut before it, the added session stays and the rename is not there.
    const beforeRename = loadOpenCodeDatabase(engine, database, { wal: cutAfter(frames - 1) });
    expect(titles(beforeRename)).toEqual(["newer", "older"]);
    expect(beforeRename.wal!.transactions).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: wal.length }), (cut) => {
        const merged = mergeWal(database, wal.slice(0, cut));
        const opened = loadOpenCodeDatabase(engine, database, { wal: wal.slice(0, cut) });
        const expected = merged.transactions === 0 ? ["older"] : merged.transactions === 1 ? ["newer", "older"] : ["newer", "older, renamed"];
        expect(titles(opened)).toEqual(expected);
        // Whole frames up to the cut either committed or left out, and said so.
        const whole = cut < 32 ? 0 : Math.floor((cut - 32) / FRAME);
        expect(merged.frames + merged.ignoredFrames).toBe(whole);
        if (merged.ignoredFrames > 0) expect(opened.session.warnings.some((w) => /belong to no committed write/.test(w.message))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("a damaged frame ends the log there: the writes after it are left out, as SQLite leaves them", () => {
    const damaged = wal.slice();
    const lastFrame = damaged.length - FRAME;
    damaged[lastFrame + 24 + 100] = damaged[lastFrame + 24 + 100]! ^ 0xff;
    const opened = loadOpenCodeDatabase(engine, database, { wal: damaged });
    expect(titles(opened)).toEqual(["newer", "older"]);
    expect(opened.wal).toMatchObject({ transactions: 1, ignoredFrames: 1 });
    // A damaged header: nothing of the log is read.
    const header = wal.slice();
    header[20] = header[20]! ^ 0xff;
    expect(titles(loadOpenCodeDatabase(engine, database, { wal: header }))).toEqual(["older"]);
  });

  it("refuses a log that is not a log, or not this database's, saying which", () => {
    expect(() => loadOpenCodeDatabase(engine, database, { wal: new TextEncoder().encode("not a write-ahead log at all, just words") })).toThrow(
      /-wal file .* cannot be read with it: not a SQLite write-ahead log/,
    );
    const otherPages = wal.slice();
    new DataView(otherPages.buffer).setUint32(8, 1024);
    expect(() => loadOpenCodeDatabase(engine, database, { wal: otherPages })).toThrow(/pages are 1024 bytes and the database's 4096: not this database's log/);
  });

  it("the CLI reads the -wal file from beside the database", () => {
    const dir = mkdtempSync(join(tmpdir(), "opencode-wal-"));
    copyFileSync(join(pair, "opencode.db"), join(dir, "opencode.db"));
    copyFileSync(join(pair, "opencode.db-wal"), join(dir, "opencode.db-wal"));
    const inspected = runCli(["inspect", join(dir, "opencode.db")]);
    expect(inspected.status).toBe(0);
    expect(inspected.stderr).toContain('holds 2 sessions; showing "older, renamed"');
    expect(inspected.stderr).not.toMatch(/WAL mode/);
  });
});
