/**
 * Runs the session engine in the calling thread behind the same interface as
 * the worker client. For component tests only: the app always uses the worker.
 */
import { SessionError } from "../../core/model.ts";
import { CancelledError, SessionEngine, type TaskContext } from "../../src/worker/engine.ts";
import { handleRequest } from "../../src/worker/handlers.ts";
import { EngineError, type EngineClient, type Pending, type RequestOf } from "../../src/worker/client.ts";
import type { Progress, Request, ResponseMap } from "../../src/worker/protocol.ts";

export class InProcessClient implements EngineClient {
  private engine = new SessionEngine();
  private nextId = 1;
  private cancelled = new Set<number>();

  request<T extends Request["type"]>(request: RequestOf<T>, onProgress?: (progress: Progress) => void): Pending<ResponseMap[T]> {
    const id = this.nextId++;
    const task: TaskContext = {
      progress: (progress) => onProgress?.(progress),
      checkCancelled: () => {
        if (this.cancelled.has(id)) throw new CancelledError();
      },
    };
    const promise = (async () => {
      await Promise.resolve(); // answer asynchronously, as the worker does
      try {
        return await handleRequest(this.engine, request, task);
      } catch (error) {
        if (error instanceof CancelledError) throw new EngineError("cancelled", undefined, true);
        if (error instanceof SessionError) throw new EngineError(error.reason, error.line);
        throw new EngineError(error instanceof Error ? error.message : String(error));
      }
    })();
    return { id, promise };
  }

  cancel(id: number): void {
    this.cancelled.add(id);
  }

  onCrash(): void {}

  restart(): void {
    this.engine = new SessionEngine();
  }
}
