/**
 * Indexing a library on every core (Node only): worker threads that each take
 * the next session, run the one indexing function (core/library/index-session.ts)
 * and hand back its rows. The session's bytes never cross threads: each worker
 * reads its own files. With one job, the same function runs in this thread.
 *
 * The CLI runs from one bundle, so a worker is that same bundle started with
 * `workerData.role === LIBRARY_WORKER_ROLE` (see core/cli.ts).
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { Worker, parentPort, workerData } from "node:worker_threads";
import type { SessionUnit } from "../library/discover.ts";
import { indexSession, type IndexOptions, type ReadRange } from "../library/index-session.ts";
import type { IndexedSession, LibraryCompactionRow, SessionRows } from "../library/rows.ts";
import { useNodeHasher } from "./node-hash.ts";
import { prepareSqlite } from "./sqlite-node.ts";

/** A database in the folder is read with sql.js, loaded (in each thread) only when one is met. */
const INDEX_OPTIONS: IndexOptions = { sqlite: prepareSqlite };

export const LIBRARY_WORKER_ROLE = "session-inspector-library-indexer";

interface Job {
  id: number;
  unit: SessionUnit;
  /** IndexOptions.reuse as entries (a Map crosses to a thread too, but entries say what is sent). */
  reuse: [string, LibraryCompactionRow][];
  /** IndexOptions.previous: the unit's last rows and where that read ended. */
  previous?: IndexedSession;
}
type Reply = { id: number; rows: SessionRows } | { id: number; error: string };

/**
 * Reads whole files synchronously: a library thread has nothing else to do
 * while it waits, and the promise API's chunked reads through the thread pool
 * left it idle about 8% of an indexing run (CPU profile, 317 sessions).
 */
export function readerUnder(root: string): (path: string) => Promise<Uint8Array> {
  return async (path) => readFileSync(join(root, path));
}

/** Bytes [start, end) of a file under `root` (a grown session's tail), read the same way; short if the file is. */
export function rangeReaderUnder(root: string): ReadRange {
  return async (path, start, end) => {
    const fd = openSync(join(root, path), "r");
    try {
      const out = new Uint8Array(end - start);
      let got = 0;
      while (got < out.length) {
        const n = readSync(fd, out, got, out.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      return out.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * Indexes `units` with `jobs` threads, calling `onRows` as each finishes (in
 * completion order). Largest sessions go first so no thread is left with a
 * big one at the end.
 */
export async function indexUnits(
  root: string,
  units: readonly SessionUnit[],
  jobs: number,
  reuseOf: (unit: SessionUnit) => ReadonlyMap<string, LibraryCompactionRow> | undefined,
  onRows: (unit: SessionUnit, rows: SessionRows) => void,
  previousOf: (unit: SessionUnit) => IndexedSession | undefined = () => undefined,
): Promise<void> {
  const queue = [...units].sort((a, b) => b.bytes - a.bytes);
  if (jobs <= 1 || queue.length <= 1) {
    const read = readerUnder(root);
    const readRange = rangeReaderUnder(root);
    for (const unit of queue) onRows(unit, await indexSession(unit, read, { ...INDEX_OPTIONS, reuse: reuseOf(unit), previous: previousOf(unit), readRange }));
    return;
  }
  const threads = Math.min(jobs, queue.length);
  const script = new URL(import.meta.url);
  let next = 0;
  await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(script, { workerData: { role: LIBRARY_WORKER_ROLE, root } });
          const pending = new Map<number, SessionUnit>();
          const feed = (): void => {
            if (next >= queue.length) {
              void worker.terminate().then(() => resolve());
              return;
            }
            const unit = queue[next]!;
            const previous = previousOf(unit);
            const job: Job = { id: next, unit, reuse: [...(reuseOf(unit) ?? [])], ...(previous ? { previous } : {}) };
            next++;
            pending.set(job.id, job.unit);
            worker.postMessage(job);
          };
          worker.on("message", (reply: Reply) => {
            const unit = pending.get(reply.id)!;
            pending.delete(reply.id);
            if ("error" in reply) onRows(unit, { skipped: { kind: "skipped", path: unit.path, reason: `could not be indexed: ${reply.error}` } });
            else onRows(unit, reply.rows);
            feed();
          });
          worker.on("error", reject);
          worker.on("exit", (code) => {
            if (pending.size > 0) reject(new Error(`a library worker stopped (exit code ${code}) while indexing ${[...pending.values()].map((u) => u.path).join(", ")}`));
          });
          feed();
        }),
    ),
  );
}

/** The worker side: index each unit it is sent, until terminated. */
export function serveLibraryWorker(): void {
  const port = parentPort;
  if (!port) throw new Error("serveLibraryWorker runs only in a worker thread");
  // A worker thread has its own module state: the main thread's native hasher is not installed here
  // (without this line every payload of the audit was hashed by the portable JavaScript SHA-256).
  useNodeHasher();
  const read = readerUnder((workerData as { root: string }).root);
  const readRange = rangeReaderUnder((workerData as { root: string }).root);
  port.on("message", (job: Job) => {
    indexSession(job.unit, read, { ...INDEX_OPTIONS, reuse: new Map(job.reuse), previous: job.previous, readRange }).then(
      (rows) => port.postMessage({ id: job.id, rows } satisfies Reply),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies Reply),
    );
  });
}

export function isLibraryWorker(): boolean {
  return (workerData as { role?: string } | null)?.role === LIBRARY_WORKER_ROLE;
}
