/** What a running request may do besides answering: report progress, notice a cancel. */
import type { Progress } from "./protocol.ts";

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
  }
}

export interface TaskContext {
  progress(progress: Progress): void;
  /** Throws CancelledError once the caller has cancelled this task. */
  checkCancelled(): void;
}
