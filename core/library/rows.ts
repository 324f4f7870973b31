/**
 * The library's rows: what one audit pass over a session yields, in the shape
 * `audit <folder> --json` prints one per line (the hand-off to DuckDB, SQLite
 * or any engine that reads JSON lines) and the app's library table shows.
 * Derived figures and fact texts only: never a message's text.
 */
import type { CompactionRow } from "../audit/rows.ts";
import type { ResumePoint } from "./resume.ts";

export interface LibrarySessionRow {
  kind: "session";
  /** The file the session opens from; for a session of a database, `<database path>#<session id>`. */
  path: string;
  /** A session of a database (OpenCode's store): its id there and its title, the database being `path` up to the "#". */
  database?: { path: string; sessionId: string; title: string };
  /** The agent the layout names; `format` is what the reader found in the content. */
  agent: string;
  format: string;
  /** The working directory the session recorded, else the project folder its layout names. */
  project: string | null;
  /** The earliest time a record states (ISO), else the file's modification time; `dateFrom` says which. */
  date: string;
  dateFrom: "records" | "file modification time";
  /** The latest time a record states, and the span from the first; null when no record states a time. */
  lastDate: string | null;
  durationMs: number | null;
  /** The model the newest reply names; null when the file names none. */
  model: string | null;
  bytes: number;
  files: number;
  messages: number;
  /** Tokens of the context the agent sends now, after its own compactions: the file's last recorded turn, else an estimate (`tokenizer` says which). */
  tokens: number;
  tokenizer: string;
  compactions: number;
  /** Facts present after the agent's worst compaction, as asked/present; null without compactions. */
  worstCompaction: { index: number; asked: number; recorded: number; transparent: number } | null;
  /** Facts the agent's compactions dropped, summed over them. */
  factsDropped: number;
  warnings: number;
}

/**
 * A compaction's row: exactly `audit <file> --json`'s row for it (core/audit/rows.ts),
 * with the session's path, and the compaction's kind renamed so that `kind`
 * can say what the line is.
 */
/** `audit <file> --json`'s row without the model-view counts: the library estimates sizes (characters ÷ 4) and shows none of them. */
export type LibraryCompactionRow = { kind: "compaction"; path: string; compactionKind: string } & Omit<
  CompactionRow,
  "kind" | "viewTokensBefore" | "viewTokensAfter" | "viewTokensUnit"
>;

export interface LibrarySkippedRow {
  kind: "skipped";
  path: string;
  reason: string;
}

export type LibraryRow = LibrarySessionRow | LibraryCompactionRow | LibrarySkippedRow;

/** One session's rows: its own, then one per compaction. */
export interface IndexedSession {
  session: LibrarySessionRow;
  compactions: LibraryCompactionRow[];
  /**
   * Per compaction (same order), the fingerprint of what its audit read (core/library/audit-inputs.ts):
   * kept with the cached rows, so that re-indexing a grown session audits only what changed. Not a row.
   */
  auditInputs?: string[];
  /** Where this read ended, for the next index of a file that only grew (core/library/resume.ts). Not a row. */
  resume?: ResumePoint;
  /** Set when the rows were made from the bytes the file grew by alone: the offset that read started at. Not a row. */
  tail?: { from: number };
  /** Why a file with a resume point was read whole all the same (it changed in place, grew by a compaction, …). Not a row. */
  readWhole?: string;
}

/**
 * The rows of one unit of the folder: a session's, a database's (one per session it holds, the unit
 * being `database`, its path; a session of it that cannot be read is skipped on its own, with why), or
 * why the unit was skipped.
 */
export type SessionRows = IndexedSession | { database: string; sessions: IndexedSession[]; skipped: LibrarySkippedRow[] } | { skipped: LibrarySkippedRow };

/** Whether the unit itself was skipped (a database whose sessions are skipped one by one is not). */
export function isSkippedUnit(rows: SessionRows): rows is { skipped: LibrarySkippedRow } {
  return !("database" in rows) && "skipped" in rows;
}

/** The sessions a unit's rows hold (none for a skipped one). */
export function indexedSessions(rows: SessionRows): IndexedSession[] {
  if ("database" in rows) return rows.sessions;
  return isSkippedUnit(rows) ? [] : [rows];
}

/** A unit's rows in output order: each session's own row followed by its compactions, then what was skipped. */
export function rowsInOrder(rows: SessionRows): LibraryRow[] {
  if (isSkippedUnit(rows)) return [rows.skipped];
  const sessions = indexedSessions(rows).flatMap(({ session, compactions }): LibraryRow[] => [session, ...compactions]);
  return "database" in rows ? [...sessions, ...rows.skipped] : sessions;
}

/** One CSV line per session or compaction (`audit <folder> --csv`); fields that hold lists are JSON. */
export const CSV_COLUMNS = [
  "kind",
  "path",
  "agent",
  "format",
  "project",
  "date",
  "lastDate",
  "durationMs",
  "model",
  "bytes",
  "messages",
  "tokens",
  "compactions",
  "factsDropped",
  "index",
  "compactionKind",
  "trigger",
  "tokensBefore",
  "tokensAfter",
  "messagesBefore",
  "messagesAfter",
  "factsAsked",
  "factsRecorded",
  "factsTransparent",
  "humanMessagesDropped",
  "toolOutputsDropped",
  "reason",
] as const;

export function csvLine(row: LibraryRow): string {
  const flat: Record<string, unknown> = { ...row };
  if (row.kind === "compaction") {
    flat.factsAsked = row.facts.asked;
    flat.factsRecorded = row.facts.recorded;
    flat.factsTransparent = row.facts.transparent;
    flat.factsDropped = row.dropped.facts.length;
    flat.humanMessagesDropped = row.dropped.humanMessages.length;
    flat.toolOutputsDropped = row.dropped.toolOutputs.length;
  }
  return CSV_COLUMNS.map((column) => csvField(flat[column])).join(",");
}

function csvField(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
