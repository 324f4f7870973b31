/**
 * The library's cache in IndexedDB: one database per chosen folder name, one
 * record per session (LibraryCache semantics: its path, keyed by its files'
 * paths, sizes and modification times and the audit's version). Only derived
 * figures and fact texts are stored (SessionRows), never session text.
 */
import type { CachedRows } from "../../core/library/cache.ts";

const STORE = "rows";

function databaseName(folder: string): string {
  return `session-inspector-library:${folder}`;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(folder: string): Promise<IDBDatabase | null> {
  if (typeof indexedDB === "undefined") return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = indexedDB.open(databaseName(folder), 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    // No cache (private mode, quota): the library still works, it just reads everything.
    req.onerror = () => resolve(null);
  });
}

export interface FolderCache {
  saved: Record<string, CachedRows>;
  put(path: string, entry: CachedRows): void;
  /** Removes the sessions no longer in the folder. */
  remove(paths: string[]): void;
  close(): void;
}

export async function openFolderCache(folder: string): Promise<FolderCache> {
  const db = await open(folder);
  const saved: Record<string, CachedRows> = {};
  if (db) {
    try {
      const tx = db.transaction(STORE, "readonly");
      const store = tx.objectStore(STORE);
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      keys.forEach((key, i) => (saved[String(key)] = values[i] as CachedRows));
    } catch {
      // An unreadable cache is an empty one.
    }
  }
  const write = (run: (store: IDBObjectStore) => void) => {
    if (!db) return;
    try {
      run(db.transaction(STORE, "readwrite").objectStore(STORE));
    } catch {
      // Best effort: a failed write means the session is read again next time.
    }
  };
  return {
    saved,
    put: (path, entry) => write((store) => store.put(entry, path)),
    remove: (paths) => write((store) => paths.forEach((path) => store.delete(path))),
    close: () => db?.close(),
  };
}

export function forgetFolderCache(folder: string): Promise<void> {
  if (typeof indexedDB === "undefined") return Promise.resolve();
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(databaseName(folder));
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}
