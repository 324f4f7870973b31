/**
 * A session store that is a database (OpenCode's opencode.db, Kilo's
 * kilo.db), opened in the worker with SQLite in WebAssembly. sql.js and its
 * WASM are fetched from the app's own origin on first use only: a session
 * that is not a database never loads them.
 */
import sqlWasm from "sql.js/dist/sql-wasm-browser.wasm?url";
import type { Session } from "../../../core/model.ts";
import { sqliteEngine } from "../../../core/sqlite/engine.ts";
import { loadOpenCodeDatabase } from "../../../core/sqlite/opencode-session.ts";

async function wasmBytes(): Promise<Uint8Array> {
  const response = await fetch(sqlWasm);
  if (!response.ok) throw new Error(`the SQLite engine could not be loaded (${response.status} ${response.statusText})`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The session of the database a user most likely means (its warning names which, of how many). */
export async function openDatabaseSession(bytes: Uint8Array): Promise<Session> {
  return loadOpenCodeDatabase(await sqliteEngine(wasmBytes), bytes).session;
}
