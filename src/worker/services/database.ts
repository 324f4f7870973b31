/**
 * A session store that is a database (OpenCode's opencode.db, Kilo's
 * kilo.db), opened in the worker with SQLite in WebAssembly. sql.js and its
 * WASM are fetched from the app's own origin on first use only: a session
 * that is not a database never loads them.
 */
import sqlWasm from "sql.js/dist/sql-wasm-browser.wasm?url";
import type { Session } from "../../../core/model.ts";
import type { SessionSummary } from "../protocol.ts";
import { sqliteEngine } from "../../../core/sqlite/engine.ts";
import { loadOpenCodeDatabase } from "../../../core/sqlite/opencode-session.ts";

/** The engine, its WASM fetched from the app's origin on first use (the session worker and the library's share this). */
export const appSqlite = () => sqliteEngine(wasmBytes);

async function wasmBytes(): Promise<Uint8Array> {
  const response = await fetch(sqlWasm);
  if (!response.ok) throw new Error(`the SQLite engine could not be loaded (${response.status} ${response.statusText})`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The session asked for, else the one a user most likely means (its warning names which, of how many),
 * and the list to choose from; with the `-wal` file where it was dropped with the database.
 */
export async function openDatabaseSession(
  bytes: Uint8Array,
  sessionId?: string,
  wal?: Uint8Array,
): Promise<{ session: Session; database: NonNullable<SessionSummary["database"]> }> {
  const opened = loadOpenCodeDatabase(await appSqlite(), bytes, { sessionId, ...(wal ? { wal } : {}) });
  const sessions = opened.sessions.map((s) => ({ id: s.id, title: s.title, messages: s.messages, updated: s.updated, subagent: s.parentId !== null }));
  return { session: opened.session, database: { chosen: opened.chosen.id, sessions } };
}
