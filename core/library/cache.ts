/**
 * The library's cache: a session's rows, kept under its path, its files'
 * sizes and modification times, and the version of the audit that made them.
 * A second open of an unchanged folder reads nothing but the listing; a
 * touched file (or a new release of the audit) is read again.
 *
 * The CLI keeps each session's rows as the very lines `audit <folder> --json`
 * prints (CachedLines), so a run over an unchanged folder neither parses nor
 * re-serializes them: parsing an 11 MB cache of objects and writing them out
 * again was most of such a run (0.4 of 0.64 s on 1,571 sessions, measured).
 * The app keeps parsed rows in IndexedDB (CachedRows), which stores objects.
 */
import type { SessionUnit } from "./discover.ts";
import { indexedSessions, isSkippedUnit, rowsInOrder, type IndexedSession, type LibraryCompactionRow, type LibraryRow, type LibrarySessionRow, type SessionRows } from "./rows.ts";
import type { ResumePoint } from "./resume.ts";

/**
 * Bump when the rows a session yields change for the same bytes (a new probe,
 * a new reader): cached rows of another version are never served. 3: Gemini
 * restarts are no compactions; rule candidates leave the graded rules; session
 * rows carry the records' first and last times, the model and the cwd. 4: an OpenCode database is
 * indexed, one row per session it holds. 5: files a Claude Code subagent wrote are modified files.
 */
export const LIBRARY_INDEX_VERSION = 5;

export interface CachedRows {
  key: string;
  rows: SessionRows;
}

/**
 * One session's rows as the UTF-8 bytes of their JSON lines (without the
 * line break), its own row first (or the one row saying why it was skipped).
 * Bytes, not strings: an unchanged folder's rows go from the cache file to
 * the output without being decoded and encoded again.
 */
export interface CachedLines {
  key: string;
  skipped: boolean;
  lines: Uint8Array[];
  /** The fingerprint of each compaction line's audit inputs, in the lines' order (IndexedSession.auditInputs). */
  auditInputs: string[];
  /** Where the read of a single JSON Lines session ended (IndexedSession.resume): a growth is read from there. */
  resume?: ResumePoint;
}

/** Equal keys mean the same files, unchanged, audited by the same version. */
export function unitKey(unit: SessionUnit): string {
  const files = unit.files.map((file) => `${file.path}\u0000${file.bytes}\u0000${file.mtimeMs}`).sort();
  return `${LIBRARY_INDEX_VERSION}\u0001${files.join("\u0001")}`;
}

/** Whether a cached key was written by this version of the audit (rows of another are never reused, not even in part). */
export function isCurrentVersion(key: string): boolean {
  return key.startsWith(`${LIBRARY_INDEX_VERSION}\u0001`);
}

/** How many of a unit's compaction rows came from `reuse` (IndexOptions.reuse) rather than a new audit: what the CLI and the app report. */
export function rowsTaken(rows: SessionRows, reuse: ReadonlyMap<string, unknown> | undefined): number {
  return reuse ? flatAuditInputs(rows).filter((fingerprint) => reuse.has(fingerprint)).length : 0;
}

/** Every compaction's audit-input fingerprint of a unit's rows, in output order ("" where a row has none). */
export function flatAuditInputs(rows: SessionRows): string[] {
  return indexedSessions(rows).flatMap(({ compactions, auditInputs }) => compactions.map((_, i) => auditInputs?.[i] ?? ""));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NEWLINE = 10;

/** A session's rows in output order, each as the one line of JSON the CLI prints for it. */
export function rowLines(rows: SessionRows): CachedLines["lines"] {
  return rowsInOrder(rows).map((row) => encoder.encode(JSON.stringify(row)));
}

/** The lines joined by line breaks, one after each: what `--json` prints, and the cache file's body. */
export function joinLines(lines: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(lines.reduce((sum, line) => sum + line.length + 1, 0));
  let at = 0;
  for (const line of lines) {
    out.set(line, at);
    at += line.length;
    out[at++] = NEWLINE;
  }
  return out;
}

/** The cache file's first line: a file of another layout (or none) is not read, everything is indexed again. */
const FILE_HEADER = JSON.stringify({ sessionInspectorLibraryCache: 3 });

interface EntryHeader {
  path: string;
  key: string;
  skipped: boolean;
  rows: number;
  auditInputs?: string[];
  resume?: ResumePoint;
}

/** An in-memory view of a cache file's content: lookups by the unit's path, hits only on an equal key. */
export class LibraryCache {
  private readonly entries = new Map<string, CachedLines>();
  private changed = false;

  get(unit: SessionUnit): CachedLines | undefined {
    const entry = this.entries.get(unit.path);
    return entry && entry.key === unitKey(unit) ? entry : undefined;
  }

  /**
   * The compaction rows a changed unit's previous entry holds, by their audit inputs' fingerprint
   * (IndexOptions.reuse): a grown session is then audited only where it changed. Empty when there
   * is no previous entry, or one from another version of the audit.
   */
  reusable(unit: SessionUnit): Map<string, LibraryCompactionRow> {
    const out = new Map<string, LibraryCompactionRow>();
    const entry = this.entries.get(unit.path);
    if (!entry || entry.skipped || !isCurrentVersion(entry.key)) return out;
    let compaction = 0;
    for (const line of entry.lines) {
      if (!startsWithBytes(line, COMPACTION_ROW_START)) continue;
      const fingerprint = entry.auditInputs[compaction++];
      if (fingerprint) out.set(fingerprint, JSON.parse(decoder.decode(line)) as LibraryCompactionRow);
    }
    return out;
  }

  /**
   * The unit's previous rows as IndexOptions.previous wants them, where its entry (of this version of
   * the audit) kept a resume point: one session's row and its compactions' rows, parsed back.
   */
  previous(unit: SessionUnit): IndexedSession | undefined {
    const entry = this.entries.get(unit.path);
    if (!entry?.resume || entry.skipped || !isCurrentVersion(entry.key) || !startsWithBytes(entry.lines[0] ?? new Uint8Array(), SESSION_ROW_START)) return undefined;
    const [session, ...compactions] = entry.lines.map((line) => JSON.parse(decoder.decode(line)) as LibraryRow);
    if (compactions.some((row) => row.kind !== "compaction")) return undefined;
    return { session: session as LibrarySessionRow, compactions: compactions as LibraryCompactionRow[], auditInputs: entry.auditInputs, resume: entry.resume };
  }

  set(unit: SessionUnit, rows: SessionRows): CachedLines {
    const resume = "session" in rows ? rows.resume : undefined;
    const entry: CachedLines = { key: unitKey(unit), skipped: isSkippedUnit(rows), lines: rowLines(rows), auditInputs: flatAuditInputs(rows), ...(resume ? { resume } : {}) };
    this.entries.set(unit.path, entry);
    this.changed = true;
    return entry;
  }

  /** Drops sessions that are no longer in the folder, so the cache never grows past it. */
  keepOnly(paths: Iterable<string>): void {
    const keep = new Set(paths);
    for (const path of this.entries.keys()) {
      if (!keep.has(path)) {
        this.entries.delete(path);
        this.changed = true;
      }
    }
  }

  get isChanged(): boolean {
    return this.changed;
  }

  /**
   * The file's bytes: its header line, then per session one line saying
   * whose rows follow and how many, then the rows' own lines (JSON texts hold
   * no raw line break, so a line is always one row).
   */
  toBytes(): Uint8Array {
    const lines: Uint8Array[] = [encoder.encode(FILE_HEADER)];
    for (const [path, entry] of this.entries) {
      const header: EntryHeader = {
        path,
        key: entry.key,
        skipped: entry.skipped,
        rows: entry.lines.length,
        auditInputs: entry.auditInputs,
        ...(entry.resume ? { resume: entry.resume } : {}),
      };
      lines.push(encoder.encode(JSON.stringify(header)), ...entry.lines);
    }
    return joinLines(lines);
  }

  /**
   * The cache a file's bytes hold; an empty one for a file of another layout
   * or one that does not read whole (every session is then indexed again,
   * nothing half-read is served). Only the per-session lines are decoded.
   */
  static fromBytes(bytes: Uint8Array): LibraryCache {
    const cache = new LibraryCache();
    let at = 0;
    const nextLine = (): Uint8Array | null => {
      if (at >= bytes.length) return null;
      let end = bytes.indexOf(NEWLINE, at);
      if (end === -1) end = bytes.length;
      const line = bytes.subarray(at, end);
      at = end + 1;
      return line;
    };
    const first = nextLine();
    if (!first || decoder.decode(first) !== FILE_HEADER) return cache;
    try {
      for (let line = nextLine(); line !== null && line.length > 0; line = nextLine()) {
        const header = JSON.parse(decoder.decode(line)) as EntryHeader;
        if (typeof header.path !== "string" || typeof header.key !== "string" || !Number.isInteger(header.rows) || header.rows <= 0) return new LibraryCache();
        const rows: Uint8Array[] = [];
        for (let n = 0; n < header.rows; n++) {
          const row = nextLine();
          if (row === null || !looksLikeOneRow(row)) return new LibraryCache();
          rows.push(row);
        }
        const auditInputs = Array.isArray(header.auditInputs) ? header.auditInputs.filter((one): one is string => typeof one === "string") : [];
        const resume = typeof header.resume === "object" && header.resume !== null ? header.resume : undefined;
        cache.entries.set(header.path, { key: header.key, skipped: header.skipped === true, lines: rows, auditInputs, ...(resume ? { resume } : {}) });
      }
    } catch {
      return new LibraryCache();
    }
    return cache;
  }
}

const ROW_START = encoder.encode('{"kind":"');
const COMPACTION_ROW_START = encoder.encode('{"kind":"compaction"');
const SESSION_ROW_START = encoder.encode('{"kind":"session"');
const CLOSING_BRACE = 125;

/** Whether a row's line begins with these bytes (rowLines writes `kind` first): its kind told without parsing it. */
export function startsWithBytes(line: Uint8Array, prefix: Uint8Array): boolean {
  if (line.length <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix[i]) return false;
  return true;
}

/** A row's line as rowLines writes it: one JSON object. (Parsing each would cost what this cache saves.) */
function looksLikeOneRow(line: Uint8Array): boolean {
  return line[line.length - 1] === CLOSING_BRACE && startsWithBytes(line, ROW_START);
}
