/// <reference lib="webworker" />
/**
 * The Web Worker entry: a thin adapter from postMessage to SessionEngine.
 * Requests run one at a time in arrival order; a cancel marks its target and
 * the target stops at its next stage boundary or chunk.
 */
import { SessionError } from "../../core/model.ts";
import { SessionEngine, type FileHasher } from "./engine.ts";
import { handleRequest } from "./handlers.ts";
import { CancelledError, type TaskContext } from "./task.ts";
import type { FileHashReply } from "./file-hash.worker.ts";
import type { ProxiedFetchReply, Request, WorkerInbound, WorkerOutbound } from "./protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

const cancelled = new Set<number>();
let queue: Promise<void> = Promise.resolve();

/**
 * The endpoint reader's fetch, made by the page on our behalf: the page's
 * Content-Security-Policy then decides what may be reached.
 */
let nextFetchId = 1;
const fetchesInFlight = new Map<number, (reply: ProxiedFetchReply) => void>();
const proxiedFetch = ((url: string, init: RequestInit & { signal?: AbortSignal } = {}) =>
  new Promise((resolve, reject) => {
    const fetchId = nextFetchId++;
    const onAbort = () => {
      fetchesInFlight.delete(fetchId);
      reject(new DOMException("the request was aborted", "AbortError"));
    };
    init.signal?.addEventListener("abort", onAbort, { once: true });
    fetchesInFlight.set(fetchId, (reply) => {
      init.signal?.removeEventListener("abort", onAbort);
      if ("error" in reply) reject(reply.aborted ? new DOMException(reply.error, "AbortError") : new TypeError(reply.error));
      else resolve({ ok: reply.ok, status: reply.status, json: async () => JSON.parse(reply.body) } as Response);
    });
    post({ fetchId, fetch: { url, init: { method: init.method, headers: init.headers as Record<string, string>, body: init.body as string }, timeoutMs: 600_000 } });
  })) as typeof fetch;

/** The file's hash on a worker of its own (see file-hash.worker.ts); ended as soon as it answers or the load ends. */
const hashFileInParallel: FileHasher = (file) => {
  const worker = new Worker(new URL("./file-hash.worker.ts", import.meta.url), { type: "module", name: "file-hash-worker" });
  const result = new Promise<string>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<FileHashReply>) => ("sha256" in event.data ? resolve(event.data.sha256) : reject(new Error(event.data.error)));
    worker.onerror = (event) => reject(new Error(event.message || "the hashing worker failed"));
  });
  worker.postMessage(file);
  return { result, cancel: () => worker.terminate() };
};

const engine = new SessionEngine(proxiedFetch, hashFileInParallel);

function post(message: WorkerOutbound, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

self.onmessage = (event: MessageEvent<WorkerInbound>) => {
  if ("fetchId" in event.data) {
    const { fetchId, reply } = event.data;
    fetchesInFlight.get(fetchId)?.(reply);
    fetchesInFlight.delete(fetchId);
    return;
  }
  const { id, request } = event.data;
  if (request.type === "cancel") {
    // Handled at once, not queued: the target is still running.
    cancelled.add(request.target);
    post({ id, ok: true, result: { cancelled: true } });
    return;
  }
  // Row pages are read-only and quick: answered between the steps of a long
  // load (the compaction yields), so the original pane fills while it runs.
  if (request.type === "rows") void run(id, request);
  else queue = queue.then(() => run(id, request));
};

async function run(id: number, request: Request): Promise<void> {
  const task: TaskContext = {
    progress: (progress) => post({ id, progress }),
    checkCancelled: () => {
      if (cancelled.has(id)) throw new CancelledError();
    },
  };
  try {
    task.checkCancelled();
    const result = await handleRequest(engine, request, task);
    post({ id, ok: true, result }, transferables(result));
  } catch (error) {
    if (error instanceof CancelledError) post({ id, ok: false, error: { message: "cancelled", cancelled: true } });
    else if (error instanceof SessionError) post({ id, ok: false, error: { message: error.reason, line: error.line } });
    else post({ id, ok: false, error: { message: error instanceof Error ? error.message : String(error) } });
  } finally {
    cancelled.delete(id);
  }
}

/** Geometry arrays move to the main thread instead of being copied. */
function transferables(result: unknown): Transferable[] {
  const out: Transferable[] = [];
  const view = (result as { view?: unknown })?.view ?? result;
  for (const pane of ["original", "active"] as const) {
    const geometry = (view as Record<string, { heights?: Uint16Array; roles?: Uint8Array; flags?: Uint8Array; aligned?: Int32Array }> | undefined)?.[pane];
    if (!geometry?.heights) continue;
    for (const array of [geometry.heights, geometry.roles, geometry.flags, geometry.aligned]) if (array) out.push(array.buffer as ArrayBuffer);
  }
  return out;
}
