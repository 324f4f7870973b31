/**
 * Each request type → the code that answers it, typed from request to
 * response so the worker side keeps the typing the client has. Shared by the
 * worker and the in-process client of the component tests.
 */
import type { SessionEngine } from "./engine.ts";
import type { Request, RequestOf, ResponseMap } from "./protocol.ts";
import { compactionAudit, timelineOf } from "./services/audit.ts";
import { checkrideScreen, roundsOnScreen } from "./services/evaluate.ts";
import { detailOf, diffRow, locateMessage, recoverFrom, searchView } from "./services/inspect.ts";
import { exportCheckpoint, exportRedacted, report, scan } from "./services/share.ts";
import { equivalents } from "./services/equivalents.ts";
import { exactTokens } from "./services/tokens.ts";
import type { TaskContext } from "./task.ts";

type Handler<T extends Request["type"]> = (engine: SessionEngine, request: RequestOf<T>, task: TaskContext) => ResponseMap[T] | Promise<ResponseMap[T]>;

export const HANDLERS: { [T in Request["type"]]: Handler<T> } = {
  strategies: (engine) => engine.strategies(),
  load: (engine, { source, params, databaseSession }, task) => engine.load(source, params, task, databaseSession),
  compact: (engine, { view, params }) => engine.compact(view, params),
  rows: (engine, { view, pane, start, end }) => engine.rows(view, pane, start, end),
  tokens: (engine, { view }, task) => exactTokens(engine.screen(view), cancelSignal(task)),
  equivalents: (engine, { view }, task) => equivalents(engine.screen(view), cancelSignal(task)),
  detail: (engine, { view, pane, index, full }) => detailOf(engine.screen(view).view, pane, index, full),
  recover: (engine, { view, recoveryId, full }) => recoverFrom(engine.screen(view).view, recoveryId, full),
  search: (engine, { view, query }) => searchView(engine.screen(view).view, query),
  diff: (engine, { view, index, full }) => diffRow(engine.screen(view).view, index, full),
  export: (engine, { view }) => exportCheckpoint(engine.screen(view)),
  locate: (engine, { view, messageId }) => locateMessage(engine.screen(view).view, messageId),
  checkride: (engine, { view, params }, task) => checkrideScreen(engine.screen(view), params, engine.fetchImpl, task),
  rounds: (engine, { view, params }) => roundsOnScreen(engine.screen(view), params),
  scan: (engine, { view }) => scan(engine.screen(view)),
  report: (engine, { view, params }) => report(engine.screen(view), params),
  exportRedacted: (engine, { view, masked }) => exportRedacted(engine.screen(view), masked),
  timeline: (engine, { view }) => timelineOf(engine.screen(view)),
  compactionAudit: (engine, { view, index }) => compactionAudit(engine.screen(view), index),
  auditView: (engine, { view, index }) => engine.auditView(view, index),
  follow: (engine, { view, params }, task) => engine.follow(view, params, task),
  // Cancels are answered by the worker before anything is queued; one reaching here found nothing to cancel.
  cancel: () => ({ cancelled: false }),
};

/** A task's cancel as the `{ aborted }` the core's slice counters read. */
function cancelSignal(task: TaskContext): { readonly aborted: boolean } {
  return {
    get aborted() {
      try {
        task.checkCancelled();
        return false;
      } catch {
        return true;
      }
    },
  };
}

/** One request → its answer. */
export function handleRequest<T extends Request["type"]>(engine: SessionEngine, request: RequestOf<T>, task: TaskContext): ResponseMap[T] | Promise<ResponseMap[T]> {
  return (HANDLERS[request.type] as Handler<T>)(engine, request, task);
}
