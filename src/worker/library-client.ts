/**
 * The library's worker pool, typed: up to four Web Workers (one per core),
 * each auditing one session at a time. The page hands over File objects (a
 * structured clone of a File is a handle, not its bytes) and gets back rows.
 * Cancel terminates the workers: a session half-read is simply dropped.
 */
import type { SessionUnit } from "../../core/library/discover.ts";
import type { SessionRows } from "../../core/library/rows.ts";

export interface LibraryWorkerRequest {
  id: number;
  unit: SessionUnit;
  files: { path: string; file: File }[];
  /** The unit's rows from its last index by this version, if any: its unchanged compactions are not audited again. */
  previous?: SessionRows;
}

export interface LibraryWorkerReply {
  id: number;
  rows: SessionRows;
  /** Compaction rows taken from `previous` (their audit's inputs unchanged) instead of being audited again. */
  reused: number;
}

export interface IndexJob {
  unit: SessionUnit;
  files: { path: string; file: File }[];
  previous?: SessionRows;
}

export interface IndexRun {
  /** Resolves when every job is done (or the run was cancelled). */
  done: Promise<void>;
  cancel(): void;
}

export function poolSize(): number {
  const cores = typeof navigator !== "undefined" && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores));
}

export function createLibraryWorker(): Worker {
  return new Worker(new URL("./library.worker.ts", import.meta.url), { type: "module" });
}

/** Runs the jobs on a fresh pool, biggest sessions first so the last worker is not left with the largest. */
export function indexInPool(jobs: readonly IndexJob[], onRows: (job: IndexJob, rows: SessionRows, reused: number) => void, create: () => Worker = createLibraryWorker): IndexRun {
  const queue = [...jobs];
  const workers: Worker[] = [];
  let cancelled = false;
  let nextId = 1;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let active = 0;

  const stopAll = () => {
    for (const worker of workers) worker.terminate();
    workers.length = 0;
  };
  const feed = (worker: Worker) => {
    const job = queue.shift();
    if (!job || cancelled) {
      worker.terminate();
      if (--active === 0) finish();
      return;
    }
    const id = nextId++;
    worker.onmessage = (event: MessageEvent<LibraryWorkerReply>) => {
      if (cancelled || event.data.id !== id) return;
      onRows(job, event.data.rows, event.data.reused);
      feed(worker);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (cancelled) return;
      onRows(job, { skipped: { kind: "skipped", path: job.unit.path, reason: `the worker stopped: ${event.message || "out of memory?"}` } }, 0);
      // A crashed worker is replaced, the queue goes on.
      worker.terminate();
      const fresh = create();
      workers.push(fresh);
      feed(fresh);
    };
    worker.postMessage({ id, unit: job.unit, files: job.files, previous: job.previous } satisfies LibraryWorkerRequest);
  };

  const size = Math.min(poolSize(), queue.length);
  if (size === 0) finish();
  for (let i = 0; i < size; i++) {
    const worker = create();
    workers.push(worker);
    active++;
    feed(worker);
  }
  return {
    done,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      stopAll();
      finish();
    },
  };
}
