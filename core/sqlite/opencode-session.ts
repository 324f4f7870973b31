/**
 * An OpenCode database opened as a session: the session asked for by id, or
 * the one a user most likely means (the latest top-level one), read as its
 * export would be; the others are listed so the caller can say they are
 * there and how to open them.
 */
import type { SqlJsStatic } from "sql.js";
import type { Session } from "../model.ts";
import { SessionError } from "../model.ts";
import { readOpenCode } from "../formats/opencode.ts";
import { latestOpenCodeSession, listOpenCodeSessions, openCodeExportFromDb, type OpenCodeDbSession } from "../formats/opencode-db.ts";
import { sessionFromReader } from "../session.ts";

export interface OpenedDatabase {
  session: Session;
  sessions: OpenCodeDbSession[];
  chosen: OpenCodeDbSession;
}

export function loadOpenCodeDatabase(engine: SqlJsStatic, bytes: Uint8Array, options: { sessionId?: string; strict?: boolean } = {}): OpenedDatabase {
  let db;
  try {
    db = new engine.Database(bytes);
  } catch (error) {
    throw new SessionError(0, `a SQLite database that cannot be opened (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    const sessions = listOpenCodeSessions(db);
    const chosen = options.sessionId !== undefined ? sessions.find((s) => s.id === options.sessionId) : latestOpenCodeSession(sessions);
    if (!chosen) {
      throw new SessionError(0, options.sessionId !== undefined ? `no session "${options.sessionId}" in this database` : "an OpenCode database with no sessions");
    }
    const strict = options.strict ?? false;
    const session = sessionFromReader(readOpenCode(openCodeExportFromDb(db, chosen.id), strict), strict);
    // Header bytes 18-19 are 2 in WAL mode: the newest writes may still sit in the -wal file beside it, which is not read.
    if (bytes[18] === 2 && bytes[19] === 2) {
      session.warnings.unshift({
        line: 0,
        message:
          "the database is in WAL mode: what OpenCode wrote since its last checkpoint is in the opencode.db-wal file beside it, which is not read here; quit OpenCode (or run sqlite3 on it with PRAGMA wal_checkpoint) to see the latest",
      });
    }
    if (sessions.length > 1) {
      session.warnings.unshift({
        line: 0,
        message: `this database holds ${sessions.length} sessions; showing "${chosen.title}" (${chosen.id}, ${options.sessionId !== undefined ? "the one asked for" : "the most recently updated with messages"}); the app's Session picker and the CLI's --session ID open another`,
      });
    }
    return { session, sessions, chosen };
  } catch (error) {
    if (error instanceof SessionError) throw error;
    // SQLite reads the file lazily: a damaged one fails at the first query ("file is not a database").
    throw new SessionError(0, `a SQLite database that cannot be read (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    db.close();
  }
}
