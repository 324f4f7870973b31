/**
 * The SQLite engine for the CLI: sql.js, its WASM read from its package. It is
 * made ready (asynchronously, once) before a command that was handed a
 * database runs, so the commands read a database as synchronously as any file.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { SqlJsStatic } from "sql.js";
import { isSqliteFile, sqliteEngine } from "../sqlite/engine.ts";

let ready: SqlJsStatic | null = null;

/** Whether `file` is a regular file that starts like a SQLite database. */
export function isSqlitePath(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    const fd = openSync(file, "r");
    try {
      const head = new Uint8Array(16);
      return readSync(fd, head, 0, 16, 0) === 16 && isSqliteFile(head);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** sql.js is left out of the CLI's bundle (bin/bundle.mjs), so it finds its WASM beside its own script. */
export async function prepareSqlite(): Promise<SqlJsStatic> {
  ready = await sqliteEngine();
  return ready;
}

/** The engine made ready by `prepareSqlite` (the CLI's main does it when the input is a database). */
export function readySqlite(): SqlJsStatic {
  if (!ready) throw new Error("the SQLite engine was not prepared before reading a database");
  return ready;
}
