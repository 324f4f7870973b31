/**
 * The typed client for the session worker. The main thread imports only this
 * and the protocol types: no parser, no hashing, no engine code ends up in
 * the main bundle. (test/helpers/in-process-client.ts runs the same engine
 * in-process for component tests.)
 */
import type { Progress, ProxiedFetch, ProxiedFetchReply, Request, RequestOf, ResponseMap, WorkerInbound, WorkerOutbound } from "./protocol.ts";

export type { RequestOf };

export class EngineError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

export interface Pending<T> {
  id: number;
  promise: Promise<T>;
}

export interface EngineClient {
  request<T extends Request["type"]>(request: RequestOf<T>, onProgress?: (progress: Progress) => void): Pending<ResponseMap[T]>;
  cancel(id: number): void;
  /** Called when the engine dies (the worker crashed); the client is unusable until restart(). */
  onCrash(listener: (message: string) => void): void;
  restart(): void;
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: Progress) => void;
}

export class WorkerClient implements EngineClient {
  private worker!: Worker;
  private nextId = 1;
  private waiting = new Map<number, Waiting>();
  private crashListeners: ((message: string) => void)[] = [];

  constructor(private readonly create: () => Worker) {
    this.start();
  }

  private start(): void {
    this.worker = this.create();
    this.worker.onmessage = (event: MessageEvent<WorkerOutbound>) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crash(event.message || "the session worker stopped unexpectedly");
    };
    this.worker.onmessageerror = () => this.crash("the session worker sent a message that could not be read");
  }

  private receive(message: WorkerOutbound): void {
    if ("fetchId" in message) {
      void performProxiedFetch(message.fetch).then((reply) => this.worker.postMessage({ fetchId: message.fetchId, reply } satisfies WorkerInbound));
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    if ("progress" in message) {
      waiting.onProgress?.(message.progress);
      return;
    }
    this.waiting.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new EngineError(message.error.message, message.error.line, message.error.cancelled));
  }

  private crash(message: string): void {
    for (const waiting of this.waiting.values()) waiting.reject(new EngineError(message));
    this.waiting.clear();
    for (const listener of this.crashListeners) listener(message);
  }

  request<T extends Request["type"]>(request: RequestOf<T>, onProgress?: (progress: Progress) => void): Pending<ResponseMap[T]> {
    const id = this.nextId++;
    const promise = new Promise<ResponseMap[T]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
    });
    const message: WorkerInbound = { id, request };
    this.worker.postMessage(message);
    return { id, promise };
  }

  cancel(id: number): void {
    if (!this.waiting.has(id)) return;
    this.worker.postMessage({ id: this.nextId++, request: { type: "cancel", target: id } } satisfies WorkerInbound);
  }

  onCrash(listener: (message: string) => void): void {
    this.crashListeners.push(listener);
  }

  restart(): void {
    this.worker.terminate();
    this.crash("restarted");
    this.start();
  }
}

/** The worker's endpoint request, made here so the page's CSP governs where it may go. */
async function performProxiedFetch(request: ProxiedFetch): Promise<ProxiedFetchReply> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const response = await fetch(request.url, { ...request.init, signal: controller.signal, credentials: "omit", referrerPolicy: "no-referrer" });
    return { ok: response.ok, status: response.status, body: await response.text() };
  } catch (error) {
    const aborted = error instanceof Error && error.name === "AbortError";
    return { error: error instanceof Error ? error.message : String(error), aborted };
  } finally {
    clearTimeout(timer);
  }
}
