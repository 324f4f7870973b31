/**
 * SQLite in WebAssembly (sql.js, the SQLite C library compiled to WASM), for
 * the agents whose store is a database (OpenCode's `opencode.db`, Kilo CLI's
 * `kilo.db`). The same code runs in the worker, the CLI and the tests; only
 * where the WASM bytes come from differs, so the caller hands them in. Loaded
 * on first use (sql.js is imported only then): a session that is not a
 * database never pays for it.
 */
import type { Database, SqlJsStatic } from "sql.js";

export type { Database };

/** The first 16 bytes of every SQLite 3 database file. */
const MAGIC = "SQLite format 3\u0000";

export function isSqliteFile(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

let engine: Promise<SqlJsStatic> | null = null;

/**
 * The engine, instantiated once: from `wasm` (the bytes of sql.js's `sql-wasm.wasm`, as the worker
 * fetches them), or without it where sql.js finds its WASM beside its own script (Node).
 */
export function sqliteEngine(wasm?: () => Promise<Uint8Array> | Uint8Array): Promise<SqlJsStatic> {
  engine ??= Promise.all([import("sql.js"), wasm?.()]).then(([{ default: initSqlJs }, bytes]) =>
    bytes ? initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }) : initSqlJs(),
  );
  engine.catch(() => (engine = null));
  return engine;
}

/** Rows of a query as objects keyed by column name. */
export function queryRows(db: Database, sql: string, params: (string | number)[] = []): Record<string, unknown>[] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: Record<string, unknown>[] = [];
    while (statement.step()) rows.push(statement.getAsObject() as Record<string, unknown>);
    return rows;
  } finally {
    statement.free();
  }
}

/** The names of the database's tables, and of a table's columns. */
export function tableColumns(db: Database): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>();
  for (const { name } of queryRows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")) {
    if (typeof name !== "string") continue;
    tables.set(name, new Set(queryRows(db, `PRAGMA table_info("${name.replace(/"/g, '""')}")`).map((column) => String(column.name))));
  }
  return tables;
}
