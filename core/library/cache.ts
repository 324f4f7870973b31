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
import type { LibraryRow, SessionRows } from "./rows.ts";

/**
 * Bump when the rows a session yields change for the same bytes (a new probe,
 * a new reader): cached rows of another version are never served.
 */
export const LIBRARY_INDEX_VERSION = 1;

export interface CachedRows {
  key: string;
  rows: SessionRows;
}

/** One session's rows as JSON texts, its own row first (or the one row saying why it was skipped). */
export interface CachedLines {
  key: string;
  skipped: boolean;
  lines: string[];
}

/** Equal keys mean the same files, unchanged, audited by the same version. */
export function unitKey(unit: SessionUnit): string {
  const files = unit.files.map((file) => `${file.path}\u0000${file.bytes}\u0000${file.mtimeMs}`).sort();
  return `${LIBRARY_INDEX_VERSION}\u0001${files.join("\u0001")}`;
}

/** A session's rows in output order, each as the one line of JSON the CLI prints for it. */
export function rowLines(rows: SessionRows): CachedLines["lines"] {
  const list: LibraryRow[] = "skipped" in rows ? [rows.skipped] : [rows.session, ...rows.compactions];
  return list.map((row) => JSON.stringify(row));
}

/** The cache file's first line: a file of another layout (or none) is not read, everything is indexed again. */
const FILE_HEADER = JSON.stringify({ sessionInspectorLibraryCache: 2 });

interface EntryHeader {
  path: string;
  key: string;
  skipped: boolean;
  rows: number;
}

/** An in-memory view of a cache file's content: lookups by the unit's path, hits only on an equal key. */
export class LibraryCache {
  private readonly entries = new Map<string, CachedLines>();
  private changed = false;

  get(unit: SessionUnit): CachedLines | undefined {
    const entry = this.entries.get(unit.path);
    return entry && entry.key === unitKey(unit) ? entry : undefined;
  }

  set(unit: SessionUnit, rows: SessionRows): CachedLines {
    const entry: CachedLines = { key: unitKey(unit), skipped: "skipped" in rows, lines: rowLines(rows) };
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
   * The file's text: its header line, then per session one line saying whose
   * rows follow and how many, then the rows' own lines (JSON texts hold no
   * raw line break, so a line is always one row).
   */
  toText(): string {
    const out = [FILE_HEADER];
    for (const [path, entry] of this.entries) {
      out.push(JSON.stringify({ path, key: entry.key, skipped: entry.skipped, rows: entry.lines.length } satisfies EntryHeader), ...entry.lines);
    }
    return out.join("\n") + "\n";
  }

  /**
   * The cache a file's text holds; an empty one for a file of another layout
   * or one that does not read whole (every session is then indexed again,
   * nothing half-read is served). Only the per-session lines are parsed.
   */
  static fromText(text: string): LibraryCache {
    const cache = new LibraryCache();
    const lines = text.split("\n");
    if (lines[0] !== FILE_HEADER) return cache;
    let at = 1;
    try {
      while (at < lines.length && lines[at] !== "") {
        const header = JSON.parse(lines[at]!) as EntryHeader;
        const rows = lines.slice(at + 1, at + 1 + header.rows);
        const whole = typeof header.path === "string" && typeof header.key === "string" && Number.isInteger(header.rows) && header.rows > 0 && rows.length === header.rows;
        if (!whole || !rows.every(looksLikeOneRow)) return new LibraryCache();
        cache.entries.set(header.path, { key: header.key, skipped: header.skipped === true, lines: rows });
        at += 1 + header.rows;
      }
    } catch {
      return new LibraryCache();
    }
    return cache;
  }
}

/** A row's line as rowLines writes it: one JSON object. (Parsing each would cost what this cache saves.) */
function looksLikeOneRow(line: string): boolean {
  return line.startsWith('{"kind":"') && line.endsWith("}");
}
