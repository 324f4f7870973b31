/**
 * One audit pass over one session of a library: read it, find its recorded
 * compactions, audit each, and keep only the rows. The session itself is let
 * go when this returns, so indexing a folder holds one session per worker at
 * a time, never the folder. The app's Web Workers and the CLI's worker
 * threads both call this function: one code path.
 */
import { auditSession } from "../audit/session.ts";
import { compactionRow } from "../audit/rows.ts";
import { contextSize } from "../audit/size.ts";
import { CHARS_QUARTER } from "../tokens.ts";
import type { Session } from "../model.ts";
import { loadSession } from "../session.ts";
import { loadSessionFiles } from "../session-files.ts";
import { READ_ROLES, type SessionUnit } from "./discover.ts";
import { indexedSessions, type IndexedSession, type LibraryCompactionRow, type LibrarySessionRow, type LibrarySkippedRow, type SessionRows } from "./rows.ts";
import { compactionFingerprints } from "./audit-inputs.ts";
import { delegatedWork, headerIds } from "../checkride/session.ts";
import { sessionCwd } from "../session-info.ts";
import type { SqlJsStatic } from "sql.js";
import { isSqliteFile } from "../sqlite/engine.ts";
import { openOpenCodeDatabase } from "../sqlite/opencode-session.ts";
import { sessionRecord } from "./session-record.ts";
import { checkRanges, endHashes, grownTail, resumePointOf, sameStart, type ResumePoint } from "./resume.ts";

/** Reads a file of the unit; the CLI reads the disk, the app a dropped File. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

/** The unit's session, and where the read ended for a single JSON Lines file a growth can be read from (resume.ts). */
async function loadUnit(unit: SessionUnit, read: ReadFile): Promise<{ session: Session; resume?: ResumePoint }> {
  const files = unit.files.filter((file) => READ_ROLES.has(file.role));
  if (files.length === 1) {
    const bytes = await read(unit.path);
    const session = loadSession(bytes);
    return { session, resume: resumePointOf(session, bytes) };
  }
  const named = [];
  for (const file of files) named.push({ name: file.path, bytes: await read(file.path) });
  return { session: loadSessionFiles(named) };
}

/** Reads bytes [start, end) of a file: a grown file's tail, and the few bytes that tell it was only appended to. */
export type ReadRange = (path: string, start: number, end: number) => Promise<Uint8Array>;

/** What indexing needs beyond the files: the SQLite engine a database is read with (the worker's WASM, the CLI's). */
export interface IndexOptions {
  sqlite?: () => Promise<SqlJsStatic>;
  /**
   * The compaction rows of the unit's previous index, by the fingerprint of what each audit read
   * (core/library/audit-inputs.ts): a compaction whose inputs are unchanged takes its row from here
   * instead of being audited again. Built by reusableAudits from the cached rows.
   */
  reuse?: ReadonlyMap<string, LibraryCompactionRow>;
  /**
   * The unit's previous rows, with where that read ended (IndexedSession.resume): a file that only grew
   * since is read from there (readRange), not whole, when what it grew by leaves every earlier figure
   * as it was (core/library/resume.ts says what that takes).
   */
  previous?: IndexedSession;
  readRange?: ReadRange;
}

export async function indexSession(unit: SessionUnit, read: ReadFile, options: IndexOptions = {}): Promise<SessionRows> {
  const opening = unit.files[0]!;
  let session: Session;
  let resume: ResumePoint | undefined;
  let readWhole: string | undefined;
  try {
    const log = unit.files.find((file) => file.role === "database-log");
    if (log || /\.db$/.test(opening.path)) {
      const bytes = await read(opening.path);
      if (isSqliteFile(bytes)) return await indexDatabase(unit, bytes, log ? await read(log.path) : null, options);
    }
    const grown =
      options.previous?.resume && options.readRange
        ? await grownRows(unit, options.previous, options.readRange).catch((error: unknown) => `what it grew by could not be read (${reasonOf(error)})`)
        : null;
    if (grown && typeof grown !== "string") return grown;
    const loaded = await loadUnit(unit, read);
    session = loaded.session;
    resume = loaded.resume;
    readWhole = grown ?? undefined;
  } catch (error) {
    return { skipped: { kind: "skipped", path: unit.path, reason: reasonOf(error) } };
  }
  const rows = await sessionRows(session, unit, unit.path, options.reuse);
  if (resume) rows.resume = resume;
  if (readWhole) rows.readWhole = readWhole;
  return rows;
}

/**
 * The rows of a file that grew since `previous` was made from it, from the bytes it grew by alone; or
 * why it has to be read whole. What the growth leaves as it was is taken from `previous`: its
 * compactions (none is new), its place and format; the rest is worked out from the growth read as a
 * session of its own (what the branch and the warnings gained, the last turn's usage, the records'
 * times and model).
 */
async function grownRows(unit: SessionUnit, previous: IndexedSession, readRange: ReadRange): Promise<IndexedSession | string> {
  const point = previous.resume!;
  const files = unit.files.filter((file) => READ_ROLES.has(file.role));
  if (files.length !== 1 || files[0]!.path !== unit.path) return "it is read from more than one file";
  if (unit.bytes < point.bytes) return "it shrank";
  if (unit.bytes === point.bytes) return "it changed in place (the same size)";
  const was = checkRanges(point.bytes);
  if (!sameStart(point, await readRange(unit.path, ...was.head), await readRange(unit.path, ...was.end))) return "bytes already read changed";
  const read = grownTail(point, await readRange(unit.path, point.bytes, unit.bytes));
  if (!read.ok) return read.why;

  // As currentContextTokens: the last turn's own record, else the estimate of the context, which is a
  // sum over its messages (contextTokens), so the growth's branch adds its own to the last one.
  const last = read.session.usage(read.leafId).turns.at(-1);
  let tokens: { tokens: number; tokenizer: string };
  if (last && last.contextTokens > 0) tokens = { tokens: last.contextTokens, tokenizer: FILE_USAGE_LABEL };
  else if (!last && previous.session.tokenizer === FILE_USAGE_LABEL) tokens = { tokens: previous.session.tokens, tokenizer: FILE_USAGE_LABEL };
  else if (previous.session.tokenizer === CHARS_QUARTER.label) {
    const added = contextSize(read.session.branch(read.leafId), read.session.format, CHARS_QUARTER);
    tokens = { tokens: previous.session.tokens + added, tokenizer: CHARS_QUARTER.label };
  } else return "its last turn records no context size, and the estimate is made from the whole context";

  const before = previous.session;
  const record = sessionRecord(read.session);
  const times = [before.dateFrom === "records" ? before.date : null, before.lastDate, record.first, record.last].filter((time): time is string => time !== null);
  const ms = times.map((time) => Date.parse(time));
  const first = ms.length > 0 ? new Date(Math.min(...ms)).toISOString() : null;
  const lastDate = ms.length > 0 ? new Date(Math.max(...ms)).toISOString() : null;
  const now = checkRanges(unit.bytes);
  const session: LibrarySessionRow = {
    ...before,
    date: first ?? new Date(unit.mtimeMs).toISOString(),
    dateFrom: first ? "records" : "file modification time",
    lastDate,
    durationMs: first && lastDate ? Date.parse(lastDate) - Date.parse(first) : null,
    model: record.model ?? before.model,
    bytes: unit.bytes,
    files: unit.files.length,
    messages: before.messages + read.messages,
    warnings: before.warnings + read.warnings,
    ...tokens,
  };
  const rows: IndexedSession = { session, compactions: previous.compactions, auditInputs: previous.auditInputs, tail: { from: point.bytes } };
  if (read.next) rows.resume = { ...read.next, ...endHashes(await readRange(unit.path, ...now.head), await readRange(unit.path, ...now.end)) };
  return rows;
}

/**
 * Every session of an OpenCode database, each audited as a file of its own would be and let go before
 * the next is read; the database is opened once. A row's path is the database's and the session's id.
 */
async function indexDatabase(unit: SessionUnit, bytes: Uint8Array, wal: Uint8Array | null, options: IndexOptions): Promise<SessionRows> {
  if (!options.sqlite) throw new Error("an OpenCode database, and no SQLite engine was handed to the indexer");
  const database = openOpenCodeDatabase(await options.sqlite(), bytes, { wal });
  try {
    const sessions: IndexedSession[] = [];
    const skipped: LibrarySkippedRow[] = [];
    const withMessages = database.sessions.filter((listed) => listed.messages > 0);
    if (withMessages.length === 0) throw new Error("an OpenCode database with no session that has messages");
    for (const listed of withMessages) {
      const path = `${unit.path}#${listed.id}`;
      let session: Session;
      try {
        session = database.read(listed.id);
      } catch (error) {
        // One session its reader refuses leaves the others listed.
        skipped.push({ kind: "skipped", path, reason: reasonOf(error) });
        continue;
      }
      const rows = await sessionRows(session, unit, path, options.reuse);
      rows.session.database = { path: unit.path, sessionId: listed.id, title: listed.title };
      sessions.push(rows);
    }
    return { database: unit.path, sessions, skipped };
  } finally {
    database.close();
  }
}

async function sessionRows(session: Session, unit: SessionUnit, path: string, reuse?: ReadonlyMap<string, LibraryCompactionRow>): Promise<IndexedSession> {
  const leaf = session.defaultLeafId;
  const recorded = session.recordedCompactions(leaf);
  const cwd = sessionCwd(session);
  const auditInputs = compactionFingerprints(session.branch(leaf), recorded, {
    path,
    format: session.format,
    cwd,
    sessionIds: headerIds(session.header),
    delegated: delegatedWork(session),
  });
  const reused = new Map<number, LibraryCompactionRow>();
  recorded.forEach((compaction, i) => {
    const row = reuse?.get(auditInputs[i]!);
    if (row) reused.set(compaction.index, row);
  });
  const toAudit = new Set(recorded.map((compaction) => compaction.index).filter((index) => !reused.has(index)));
  // The literal reader: the library never calls a model (facts present in context).
  // Its rows carry no sizes, so the audit's are estimated (the o200k count would be most of the time).
  const audit = toAudit.size === 0 ? { compactions: [] } : await auditSession(session, { leafId: leaf, reader: "literal", sizeTokenizer: CHARS_QUARTER, cwd, only: toAudit });
  const audited = new Map<number, LibraryCompactionRow>(
    audit.compactions.map((one) => {
      const { kind, viewTokensBefore: _before, viewTokensAfter: _after, viewTokensUnit: _unit, ...row } = compactionRow(one);
      return [one.index, { kind: "compaction", path, compactionKind: kind, ...row }];
    }),
  );
  const compactions = recorded.map((compaction) => reused.get(compaction.index) ?? audited.get(compaction.index)!);
  const tokens = currentContextTokens(session, leaf);
  const worst = worstCompaction(compactions);
  const record = sessionRecord(session);
  const row: LibrarySessionRow = {
    kind: "session",
    path,
    agent: unit.agent === "unknown" ? session.format : unit.agent,
    format: session.format,
    // The working directory the session recorded; else the folder the agent filed it under.
    project: record.cwd ?? unit.project,
    date: record.first ?? new Date(unit.mtimeMs).toISOString(),
    dateFrom: record.first ? "records" : "file modification time",
    lastDate: record.last,
    durationMs: record.first && record.last ? Date.parse(record.last) - Date.parse(record.first) : null,
    model: record.model,
    bytes: unit.bytes,
    files: unit.files.length,
    messages: session.branch(leaf).length,
    tokens: tokens.tokens,
    tokenizer: tokens.tokenizer,
    compactions: compactions.length,
    worstCompaction: worst && { index: worst.index, ...worst.facts },
    factsDropped: compactions.reduce((sum, compaction) => sum + compaction.dropped.facts.length, 0),
    warnings: session.warnings.length,
  };
  return { session: row, compactions, auditInputs };
}

/** The previous index's compaction rows by the fingerprint of their inputs, for IndexOptions.reuse. */
export function reusableAudits(previous: SessionRows): Map<string, LibraryCompactionRow> {
  const out = new Map<string, LibraryCompactionRow>();
  for (const { compactions, auditInputs } of indexedSessions(previous)) {
    if (!auditInputs || auditInputs.length !== compactions.length) continue;
    compactions.forEach((row, i) => out.set(auditInputs[i]!, row));
  }
  return out;
}

/**
 * The size of the context the agent sends now (after its own compactions),
 * the figure a context window is compared with: what the model read on the
 * last turn the file records usage for, else an estimate of the model's
 * view (characters ÷ 4), each labelled. A library is indexed for its
 * compactions; counting every session with the tokenizer would cost several
 * times the indexing itself (the inspector counts exactly when one is opened).
 */
function currentContextTokens(session: Session, leaf: string | null): { tokens: number; tokenizer: string } {
  const last = session.usage(leaf).turns.at(-1);
  if (last && last.contextTokens > 0) return { tokens: last.contextTokens, tokenizer: FILE_USAGE_LABEL };
  return { tokens: contextSize(session.recordedContext(leaf).messages, session.format, CHARS_QUARTER), tokenizer: CHARS_QUARTER.label };
}

export const FILE_USAGE_LABEL = "the file's own usage record of the last turn";

/** The compaction after which the fewest of the asked facts were still present (ties: the earlier one). */
export function worstCompaction(rows: readonly LibraryCompactionRow[]): LibraryCompactionRow | null {
  let worst: LibraryCompactionRow | null = null;
  for (const row of rows) {
    if (worst === null || keptShare(row) < keptShare(worst)) worst = row;
  }
  return worst;
}

function keptShare(row: LibraryCompactionRow): number {
  return row.facts.asked === 0 ? 1 : row.facts.recorded / row.facts.asked;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0]!.slice(0, 300);
}
