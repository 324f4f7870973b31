/**
 * OpenCode's own store (v1.2 and later): `opencode.db`, SQLite, one database
 * for every session of the machine (Kilo CLI's `kilo.db` has the same tables).
 * `session` holds one row per session (subagents' name their parent in
 * `parent_id`); `message` and `part` hold each message's and part's JSON in a
 * `data` column, their ids and owners in columns of their own. Each session
 * is turned into the shape `opencode export` writes ({info, messages:[{info,
 * parts}]}, the ids put back into the JSON) and read by the export's reader,
 * so a session reads the same from the database as from its export.
 */
import { SessionError } from "../model.ts";
import { queryRows, tableColumns, type Database } from "../sqlite/engine.ts";

export interface OpenCodeDbSession {
  id: string;
  title: string;
  directory: string | null;
  /** The session that started this one (a subagent's), or null. */
  parentId: string | null;
  /** Milliseconds since the epoch, as the row records them. */
  created: number | null;
  updated: number | null;
  messages: number;
}

const REQUIRED: Record<string, string[]> = {
  session: ["id"],
  message: ["id", "session_id", "data"],
  part: ["id", "message_id", "data"],
};

/** Whether the database has OpenCode's tables; the reason it is not one otherwise. */
export function openCodeSchemaProblem(db: Database): string | null {
  const tables = tableColumns(db);
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const found = tables.get(table);
    if (!found) return `a SQLite database without OpenCode's "${table}" table (tables: ${[...tables.keys()].sort().join(", ") || "none"})`;
    const missing = columns.filter((column) => !found.has(column));
    if (missing.length > 0) return `a SQLite database whose "${table}" table lacks ${missing.join(", ")}`;
  }
  return null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const number = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Every session in the database, the most recently updated first. */
export function listOpenCodeSessions(db: Database): OpenCodeDbSession[] {
  const problem = openCodeSchemaProblem(db);
  if (problem) throw new SessionError(0, problem);
  const columns = tableColumns(db).get("session")!;
  const counts = new Map(queryRows(db, "SELECT session_id, COUNT(*) AS n FROM message GROUP BY session_id").map((row) => [String(row.session_id), Number(row.n)]));
  return queryRows(db, "SELECT * FROM session")
    .map((row) => ({
      id: String(row.id),
      title: text(row.title) ?? "(untitled)",
      directory: columns.has("directory") ? text(row.directory) : null,
      parentId: columns.has("parent_id") ? text(row.parent_id) : null,
      created: number(row.time_created),
      updated: number(row.time_updated) ?? number(row.time_created),
      messages: counts.get(String(row.id)) ?? 0,
    }))
    .sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0) || (a.id < b.id ? 1 : -1));
}

/**
 * The session a user opening the database most likely means: the most recently updated one that
 * has messages, a top-level session before a subagent's.
 */
export function latestOpenCodeSession(sessions: readonly OpenCodeDbSession[]): OpenCodeDbSession | null {
  const withMessages = sessions.filter((s) => s.messages > 0);
  return withMessages.find((s) => s.parentId === null) ?? withMessages[0] ?? sessions[0] ?? null;
}

function parsed(json: unknown, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(String(json)) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // named below
  }
  throw new SessionError(0, `${what}: its data is not a JSON object`);
}

/** One session as `opencode export` writes it: messages in the order they were created, parts in id order (OpenCode's own). */
export function openCodeExportFromDb(
  db: Database,
  sessionId: string,
): { info: Record<string, unknown>; messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] } {
  const row = queryRows(db, "SELECT * FROM session WHERE id = ?", [sessionId])[0];
  if (!row) throw new SessionError(0, `no session "${sessionId}" in this database`);
  const info: Record<string, unknown> = { id: sessionId };
  for (const [column, key] of [
    ["title", "title"],
    ["directory", "directory"],
    ["parent_id", "parentID"],
    ["project_id", "projectID"],
    ["version", "version"],
    ["slug", "slug"],
  ] as const) {
    if (row[column] !== undefined && row[column] !== null) info[key] = row[column];
  }
  if (row.time_created !== undefined) info.time = { created: row.time_created, updated: row.time_updated ?? row.time_created };
  const messageColumns = tableColumns(db).get("message")!;
  const order = messageColumns.has("time_created") ? "time_created, id" : "id";
  const parts = new Map<string, Record<string, unknown>[]>();
  for (const part of queryRows(db, "SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.id", [sessionId])) {
    const list = parts.get(String(part.message_id)) ?? [];
    list.push({ ...parsed(part.data, `part ${String(part.id)}`), id: String(part.id), messageID: String(part.message_id), sessionID: sessionId });
    parts.set(String(part.message_id), list);
  }
  const messages = queryRows(db, `SELECT id, data FROM message WHERE session_id = ? ORDER BY ${order}`, [sessionId]).map((message) => ({
    info: { ...parsed(message.data, `message ${String(message.id)}`), id: String(message.id), sessionID: sessionId },
    parts: parts.get(String(message.id)) ?? [],
  }));
  return { info, messages };
}
