/**
 * An OpenCode database opened as a session: the session asked for by id, or
 * the one a user most likely means (the latest top-level one), read as its
 * export would be; the others are listed so the caller can say they are
 * there and how to open them.
 */
import type { Database, SqlJsStatic } from "sql.js";
import type { Session } from "../model.ts";
import { SessionError } from "../model.ts";
import { readOpenCode } from "../formats/opencode.ts";
import { latestOpenCodeSession, listOpenCodeSessions, openCodeExportFromDb, type OpenCodeDbSession } from "../formats/opencode-db.ts";
import { sessionFromReader } from "../session.ts";
import { isWalMode, mergeWal, type WalMerge } from "./wal.ts";

export interface OpenedDatabase {
  session: Session;
  sessions: OpenCodeDbSession[];
  chosen: OpenCodeDbSession;
  /** What the write-ahead log beside the database added, where one was handed in. */
  wal?: Omit<WalMerge, "bytes">;
}

export interface DatabaseOptions {
  sessionId?: string;
  strict?: boolean;
  /**
   * The `-wal` file beside the database: its committed writes are read with it. `null` says the caller
   * looked and there is none (SQLite removes it on a clean close, so nothing is missing); left out,
   * a database in WAL mode is read with a warning that its newest writes may not be there.
   */
  wal?: Uint8Array | null;
}

/**
 * A database opened once (with its log laid over it), from which any of its sessions is read: the
 * library indexes every session of a database without opening it again for each. Close when done.
 */
export interface OpenCodeDatabase {
  sessions: OpenCodeDbSession[];
  /** The session as its export would read, with the warnings about the file itself (WAL mode, pages left out). */
  read(sessionId: string, strict?: boolean): Session;
  wal?: Omit<WalMerge, "bytes">;
  close(): void;
}

export function openOpenCodeDatabase(engine: SqlJsStatic, file: Uint8Array, options: Pick<DatabaseOptions, "wal"> = {}): OpenCodeDatabase {
  const walMode = isWalMode(file);
  let merged: WalMerge | undefined;
  if (options.wal) {
    try {
      merged = mergeWal(file, options.wal);
    } catch (error) {
      throw new SessionError(0, `the -wal file handed in with the database cannot be read with it: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let db: Database;
  try {
    db = new engine.Database(merged?.bytes ?? file);
  } catch (error) {
    throw new SessionError(0, `a SQLite database that cannot be opened (${error instanceof Error ? error.message : String(error)})`);
  }
  // SQLite reads the file lazily: a damaged one fails at the first query ("file is not a database").
  const guarded = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof SessionError) throw error;
      throw new SessionError(0, `a SQLite database that cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  let sessions: OpenCodeDbSession[];
  try {
    sessions = guarded(() => listOpenCodeSessions(db));
  } catch (error) {
    db.close();
    throw error;
  }
  const read = (sessionId: string, strict = false): Session =>
    guarded(() => {
      const session = sessionFromReader(readOpenCode(openCodeExportFromDb(db, sessionId), strict), strict);
      // In WAL mode the newest writes may still sit in the -wal file beside it: read with it when handed in, said when not.
      if (walMode && options.wal === undefined) {
        session.warnings.unshift({
          line: 0,
          message:
            "the database is in WAL mode: what OpenCode wrote since its last checkpoint is in the opencode.db-wal file beside it, which was not handed in; open both files together (the CLI reads it from beside the database) to see the latest",
        });
      }
      if (merged && merged.ignoredFrames > 0) {
        session.warnings.unshift({
          line: 0,
          message: `${merged.ignoredFrames} page${merged.ignoredFrames === 1 ? "" : "s"} at the end of the -wal file belong to no committed write (one in progress, or an older log's leftovers) and were left out, as SQLite leaves them`,
        });
      }
      return session;
    });
  const wal = merged ? { transactions: merged.transactions, frames: merged.frames, ignoredFrames: merged.ignoredFrames } : undefined;
  return { sessions, read, ...(wal ? { wal } : {}), close: () => db.close() };
}

export function loadOpenCodeDatabase(engine: SqlJsStatic, file: Uint8Array, options: DatabaseOptions = {}): OpenedDatabase {
  const database = openOpenCodeDatabase(engine, file, options);
  try {
    const { sessions } = database;
    const chosen = options.sessionId !== undefined ? sessions.find((s) => s.id === options.sessionId) : latestOpenCodeSession(sessions);
    if (!chosen) {
      throw new SessionError(0, options.sessionId !== undefined ? `no session "${options.sessionId}" in this database` : "an OpenCode database with no sessions");
    }
    const session = database.read(chosen.id, options.strict ?? false);
    if (sessions.length > 1) {
      session.warnings.unshift({
        line: 0,
        message: `this database holds ${sessions.length} sessions; showing "${chosen.title}" (${chosen.id}, ${options.sessionId !== undefined ? "the one asked for" : "the most recently updated with messages"}); the app's Session picker and the CLI's --session ID open another`,
      });
    }
    return { session, sessions, chosen, ...(database.wal ? { wal: database.wal } : {}) };
  } finally {
    database.close();
  }
}
