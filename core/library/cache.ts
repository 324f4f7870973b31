/**
 * The library's cache: a session's rows, kept under its path, its files'
 * sizes and modification times, and the version of the audit that made them.
 * A second open of an unchanged folder reads nothing but the listing; a
 * touched file (or a new release of the audit) is read again.
 */
import type { SessionUnit } from "./discover.ts";
import type { SessionRows } from "./rows.ts";

/**
 * Bump when the rows a session yields change for the same bytes (a new probe,
 * a new reader): cached rows of another version are never served.
 */
export const LIBRARY_INDEX_VERSION = 1;

export interface CachedRows {
  key: string;
  rows: SessionRows;
}

/** Equal keys mean the same files, unchanged, audited by the same version. */
export function unitKey(unit: SessionUnit): string {
  const files = unit.files.map((file) => `${file.path}\u0000${file.bytes}\u0000${file.mtimeMs}`).sort();
  return `${LIBRARY_INDEX_VERSION}\u0001${files.join("\u0001")}`;
}

/** An in-memory view of a cache file's content: lookups by the unit's path, hits only on an equal key. */
export class LibraryCache {
  private readonly entries: Map<string, CachedRows>;
  private changed = false;

  constructor(saved: Record<string, CachedRows> = {}) {
    this.entries = new Map(Object.entries(saved));
  }

  get(unit: SessionUnit): SessionRows | undefined {
    const entry = this.entries.get(unit.path);
    return entry && entry.key === unitKey(unit) ? entry.rows : undefined;
  }

  set(unit: SessionUnit, rows: SessionRows): void {
    this.entries.set(unit.path, { key: unitKey(unit), rows });
    this.changed = true;
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

  toJSON(): Record<string, CachedRows> {
    return Object.fromEntries(this.entries);
  }
}
