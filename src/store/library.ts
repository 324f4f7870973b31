/**
 * The library: a folder of sessions indexed by a pool of workers, its rows,
 * the table's sort and filter, and the way into and back out of the
 * inspector. Its own store (not the inspector's), so that opening a session
 * from it and coming back re-indexes nothing. The File objects stay here
 * (handles, not bytes); the rows hold derived figures only.
 */
import { create } from "zustand";
import { isCurrentVersion, unitKey } from "../../core/library/cache.ts";
import { discoverSessions, READ_ROLES, type ListedFile, type SessionUnit, type SkippedFile } from "../../core/library/discover.ts";
import { indexedSessions, isSkippedUnit, type LibraryCompactionRow, type LibrarySessionRow, type SessionRows } from "../../core/library/rows.ts";
import { indexInPool, type IndexJob, type IndexRun } from "../worker/library-client.ts";
import { forgetFolderCache, openFolderCache, type FolderCache } from "./library-cache.ts";
import { loadSource } from "./load.ts";
import { readListing } from "./read-listing.ts";

export interface PickedFile {
  /** Relative to the chosen folder, "/" separators. */
  path: string;
  file: File;
}

export type SortColumn = "agent" | "project" | "date" | "bytes" | "messages" | "tokens" | "compactions" | "worst" | "factsDropped";

export interface LibraryProgress {
  total: number;
  done: number;
  cached: number;
  bytesTotal: number;
  bytesDone: number;
  /** Bytes of the sessions served from the cache (read in no time: left out of the rate the estimate uses). */
  bytesCached: number;
  /**
   * While the files' sizes and times are still being asked of the browser
   * (files read so far, of all): the rows are listed from the paths alone,
   * nothing is indexed yet.
   */
  listing: { read: number; total: number } | null;
  startedAt: number;
  finishedAt: number | null;
  cancelled: boolean;
  /** Listed sessions that could not be read: counted in `done`, listed with the skipped files, not in the table. */
  unreadable: number;
  /** Compactions of changed sessions whose rows were taken from their last audit (what they read unchanged). */
  reused: number;
  /** Grown sessions read only from where their last read ended (core/library/resume.ts). */
  tailsRead: number;
}

export interface LibraryState {
  folder: string | null;
  /** "library": the table is on screen; "inspector": a session opened from it is. */
  screen: "library" | "inspector";
  sessions: LibrarySessionRow[];
  /** Sessions listed but not indexed yet: their row shows what the listing says (agent, project, size), the rest is "…". */
  pending: Record<string, true>;
  compactions: Record<string, LibraryCompactionRow[]>;
  skipped: SkippedFile[];
  progress: LibraryProgress | null;
  sort: { column: SortColumn; descending: boolean };
  filter: { agent: string; text: string };
  expanded: Record<string, boolean>;
  /** The compaction the inspector was asked to open on (until the audit view has an action for it). */
  pendingCompaction: { path: string; index: number } | null;
  /** The session (path) the inspector shows, when it was opened from the library. */
  openedPath: string | null;
}

const initial: LibraryState = {
  folder: null,
  screen: "library",
  sessions: [],
  pending: {},
  compactions: {},
  skipped: [],
  progress: null,
  sort: { column: "factsDropped", descending: true },
  filter: { agent: "", text: "" },
  expanded: {},
  pendingCompaction: null,
  openedPath: null,
};

export const useLibrary = create<LibraryState>()(() => initial);
const set = useLibrary.setState;
const get = useLibrary.getState;

/** Kept outside the state: File handles and the run in progress are not rendered. */
let units = new Map<string, { unit: SessionUnit; files: PickedFile[] }>();
let run: IndexRun | null = null;
let cache: FolderCache | null = null;

/** Rows arrive from several workers at once; they reach the table in batches, not one render each. */
let buffered: SessionRows[] = [];
let bufferedProgress: Partial<LibraryProgress> = {};
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  flushTimer = null;
  const batch = buffered;
  buffered = [];
  const state = get();
  const byPath = new Map(state.sessions.map((row) => [row.path, row]));
  const compactions = { ...state.compactions };
  const pending = { ...state.pending };
  const skipped = [...state.skipped];
  let unreadable = 0;
  for (const rows of batch) {
    if (isSkippedUnit(rows)) {
      unreadable++;
      skipped.push({ path: rows.skipped.path, reason: rows.skipped.reason });
      byPath.delete(rows.skipped.path);
      delete pending[rows.skipped.path];
    } else {
      // A database's listed row gives way to one row per session it holds; a session it cannot read is skipped on its own.
      if ("database" in rows) {
        byPath.delete(rows.database);
        delete pending[rows.database];
        unreadable += rows.skipped.length;
        skipped.push(...rows.skipped.map(({ path, reason }) => ({ path, reason })));
      }
      for (const one of indexedSessions(rows)) {
        byPath.set(one.session.path, one.session);
        compactions[one.session.path] = one.compactions;
        delete pending[one.session.path];
      }
    }
  }
  const progress = state.progress && { ...state.progress, ...bufferedProgress, unreadable: state.progress.unreadable + unreadable };
  set({ sessions: [...byPath.values()], pending, compactions, skipped, progress });
  bufferedProgress = {};
}

function push(rows: SessionRows, progress: Partial<LibraryProgress>): void {
  buffered.push(rows);
  bufferedProgress = { ...bufferedProgress, ...progress };
  if (flushTimer === null) flushTimer = setTimeout(flush, 60);
}

function emptyProgress(total: number, startedAt: number): LibraryProgress {
  return {
    total,
    done: 0,
    cached: 0,
    bytesTotal: 0,
    bytesDone: 0,
    bytesCached: 0,
    listing: null,
    startedAt,
    finishedAt: null,
    cancelled: false,
    unreadable: 0,
    reused: 0,
    tailsRead: 0,
  };
}

/** A session's row before its audit: what its place and its listing say. Its figures show as "…" while it is pending. */
function listedRow(unit: SessionUnit): LibrarySessionRow {
  return {
    kind: "session",
    path: unit.path,
    agent: unit.agent,
    format: "",
    project: unit.project,
    date: new Date(unit.mtimeMs).toISOString(),
    dateFrom: "file modification time",
    lastDate: null,
    durationMs: null,
    model: null,
    bytes: unit.bytes,
    files: unit.files.length,
    messages: 0,
    tokens: 0,
    tokenizer: "",
    compactions: 0,
    worstCompaction: null,
    factsDropped: 0,
    warnings: 0,
  };
}

/** Each open of a folder: a later open (or closing the library) makes an earlier one's remaining steps moot. */
let openCount = 0;

/** The folder a set of picked files came from: the first part of their relative paths. */
export function folderNameOf(files: readonly PickedFile[]): string {
  const first = files[0]?.path ?? "";
  return first.includes("/") ? first.slice(0, first.indexOf("/")) : "dropped files";
}

/**
 * Opens a folder (or several dropped files) as a library. The rows are
 * listed at once from the paths alone; then the files' sizes and times are
 * asked of the browser, a slice at a time (Chromium answers each from its
 * browser process: ~0.35–0.55 ms a file, 0.6–1.3 s for 1,571 files,
 * measured), because the cache key and the sizes need them; then the cached
 * sessions come from IndexedDB without being read and the others are indexed
 * by the pool. No content is read before that.
 */
export async function openLibrary(picked: readonly PickedFile[], folder = folderNameOf(picked)): Promise<void> {
  cancelIndexing();
  const opening = ++openCount;
  const startedAt = performance.now();
  const provisional = discoverSessions(picked.map(({ path }) => ({ path, bytes: 0, mtimeMs: 0 })));
  set({
    ...initial,
    folder,
    screen: "library",
    sort: get().sort,
    sessions: provisional.sessions.map(listedRow),
    pending: Object.fromEntries(provisional.sessions.map((unit) => [unit.path, true as const])),
    progress: { ...emptyProgress(provisional.sessions.length, startedAt), listing: { read: 0, total: picked.length } },
  });
  await readListing(picked, (read) => {
    const progress = get().progress;
    if (openCount === opening && progress) set({ progress: { ...progress, listing: { read, total: picked.length } } });
  });
  if (openCount !== opening) return;

  const listing: ListedFile[] = picked.map(({ path, file }) => ({ path, bytes: file.size, mtimeMs: file.lastModified }));
  const byPath = new Map(picked.map((entry) => [entry.path, entry]));
  const discovery = discoverSessions(listing);
  units = new Map(discovery.sessions.map((unit) => [unit.path, { unit, files: unit.files.map((file) => byPath.get(file.path)!) }]));
  const bytesTotal = discovery.sessions.reduce((sum, unit) => sum + unit.bytes, 0);
  set({
    skipped: discovery.skipped,
    // The same sessions, now with their sizes and dates; their figures arrive as they are indexed.
    sessions: discovery.sessions.map(listedRow),
    pending: Object.fromEntries(discovery.sessions.map((unit) => [unit.path, true as const])),
    progress: { ...emptyProgress(discovery.sessions.length, startedAt), bytesTotal },
  });
  cache?.close();
  const folderCache = (cache = await openFolderCache(folder));
  if (openCount !== opening || get().folder !== folder || cache !== folderCache) return;
  const stale = Object.keys(folderCache.saved).filter((path) => !units.has(path));
  if (stale.length) folderCache.remove(stale);

  let done = 0;
  let bytesDone = 0;
  let cached = 0;
  let bytesCached = 0;
  const jobs: IndexJob[] = [];
  const hits: SessionRows[] = [];
  for (const { unit, files } of units.values()) {
    const entry = folderCache.saved[unit.path];
    if (entry && entry.key === unitKey(unit)) {
      hits.push(entry.rows);
      done++;
      cached++;
      bytesDone += unit.bytes;
      bytesCached += unit.bytes;
    } else jobs.push({ unit, files, previous: entry && isCurrentVersion(entry.key) ? entry.rows : undefined });
  }
  // A database is one unit to index and as many sessions as it holds: the count grows by the others as each is read.
  let total = units.size;
  const counted = (rows: SessionRows): number => {
    const extra = "database" in rows ? rows.sessions.length - 1 : 0;
    total += extra;
    return 1 + extra;
  };
  for (const rows of hits) {
    const n = counted(rows);
    cached += n - 1;
    done += n - 1;
    push(rows, { done, cached, bytesDone, bytesCached, total });
  }
  jobs.sort((a, b) => b.unit.bytes - a.unit.bytes);
  let reused = 0;
  let tailsRead = 0;
  const started = (run = indexInPool(jobs, (job, rows, taken) => {
    done += counted(rows);
    bytesDone += job.unit.bytes;
    reused += taken;
    if ("session" in rows && rows.tail) tailsRead++;
    folderCache.put(job.unit.path, { key: unitKey(job.unit), rows });
    push(rows, { done, bytesDone, total, reused, tailsRead });
  }));
  await started.done;
  if (run !== started) return;
  run = null;
  if (flushTimer !== null) clearTimeout(flushTimer);
  flush();
  const progress = get().progress;
  if (progress) set({ progress: { ...progress, finishedAt: performance.now() } });
}

export function cancelIndexing(): void {
  const progress = get().progress;
  // Before the pool starts (sizes still being read, the cache being opened) there is no run, but an open in progress.
  const opening = progress !== null && progress.finishedAt === null;
  if (!run && !opening) return;
  // An open still asking the browser for the files' sizes, or opening the cache, stops there.
  openCount++;
  run?.cancel();
  run = null;
  if (flushTimer !== null) clearTimeout(flushTimer);
  flush();
  // Sessions never indexed leave the table: a row of "…" would say they are still coming.
  const { sessions, pending } = get();
  set({ sessions: sessions.filter((row) => !pending[row.path]), pending: {} });
  const after = get().progress;
  if (after) set({ progress: { ...after, listing: null, finishedAt: performance.now(), cancelled: true } });
}

/** Clears the folder's cache and the table: the next open reads every file again. */
export async function forgetFolder(): Promise<void> {
  const folder = get().folder;
  openCount++;
  cancelIndexing();
  cache?.close();
  cache = null;
  units = new Map();
  set({ ...initial, sort: get().sort });
  if (folder) await forgetFolderCache(folder);
}

export function closeLibrary(): void {
  openCount++;
  cancelIndexing();
  units = new Map();
  set({ ...initial, sort: get().sort });
}

export function setLibrarySort(column: SortColumn): void {
  const { sort } = get();
  set({ sort: { column, descending: sort.column === column ? !sort.descending : column !== "agent" && column !== "project" } });
}

export function setLibraryFilter(changes: Partial<LibraryState["filter"]>): void {
  set({ filter: { ...get().filter, ...changes } });
}

export function toggleLibraryRow(path: string): void {
  const expanded = { ...get().expanded };
  expanded[path] = !expanded[path];
  set({ expanded });
}

/** Opens a session of the library in the inspector (its File(s) go to the session worker), on a compaction if one is given. */
export function openFromLibrary(path: string, compactionIndex?: number): void {
  // A session of a database opens from the database (and its log), that session chosen.
  const database = get().sessions.find((row) => row.path === path)?.database;
  const entry = units.get(database?.path ?? path);
  if (!entry) return;
  set({ screen: "inspector", openedPath: path, pendingCompaction: compactionIndex === undefined ? null : { path, index: compactionIndex } });
  // A database goes with its write-ahead log, which the worker lays over it.
  const readable = entry.files.filter((_, i) => READ_ROLES.has(entry.unit.files[i]!.role) || entry.unit.files[i]!.role === "database-log");
  const name = entry.unit.path.slice(entry.unit.path.lastIndexOf("/") + 1);
  const source =
    readable.length === 1 ? { kind: "file" as const, file: readable[0]!.file } : { kind: "files" as const, name, files: readable.map(({ path: p, file }) => ({ name: p, file })) };
  // A compaction row opens on that compaction's audit; a session row on its last compaction's, as any dropped file does.
  void loadSource(source, { compaction: compactionIndex, ...(database ? { databaseSession: database.sessionId } : {}) });
}

export function backToLibrary(): void {
  set({ screen: "library" });
}

export function showInspector(): void {
  set({ screen: "inspector" });
}
