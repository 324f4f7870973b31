/**
 * Token figures of the view on screen. A view arrives with budgeted figures
 * (some messages estimated when the load's counting budget ran out); the
 * exact count is asked for once per view and replaces them when the worker
 * has it. Also the notice that checkride results were cleared by a change.
 */
import { create } from "zustand";
import type { Equivalents, ViewSummary, ViewTokenFigures } from "../worker/protocol.ts";
import { client, get as getApp, messageOf } from "./state.ts";

interface TokensState {
  /** The exact figures, for the view they were counted for. */
  exact: { viewId: number; figures: ViewTokenFigures } | null;
  counting: number | null;
  error: { viewId: number; message: string } | null;
  /** Why the checkride results on screen went away (null: they did not). */
  clearedCheckride: string | null;
  /** Strategies that give the same active context as the view's (asked after its exact count). */
  equivalents: { viewId: number; result: Equivalents | null } | null;
}

export const useTokens = create<TokensState>(() => ({ exact: null, counting: null, error: null, clearedCheckride: null, equivalents: null }));

/** The view's figures: exact once counted, else what the view came with. */
export function figuresFor(view: ViewSummary, state: TokensState): ViewTokenFigures {
  return state.exact?.viewId === view.id ? state.exact.figures : view.tokens;
}

/** Asks the worker for the exact count of a view, once. */
export async function countViewTokens(viewId: number): Promise<void> {
  const state = useTokens.getState();
  if (state.exact?.viewId === viewId || state.counting === viewId) return;
  useTokens.setState({ counting: viewId, error: null });
  try {
    const figures = await client().request({ type: "tokens", view: viewId }).promise;
    if (useTokens.getState().counting !== viewId) return;
    useTokens.setState({ exact: { viewId, figures }, counting: null });
    // Rows fetched before the worker's tokenizer was loaded have no counts: fetch them again.
    const { rowCaches, view } = getApp();
    if (view?.id === viewId) {
      rowCaches.original.refetchLackingTokens(client());
      rowCaches.active.refetchLackingTokens(client());
    }
    await compareStrategies(viewId);
  } catch (error) {
    if (useTokens.getState().counting === viewId) useTokens.setState({ counting: null, error: { viewId, message: messageOf(error) } });
  }
}

/** Says why checkride results are about to be cleared (a new view makes them stale). */
export function noteCheckrideCleared(reason: string | null): void {
  useTokens.setState({ clearedCheckride: reason });
}

/** Asks which other strategies leave the same active context as this view (after its count: one thing at a time in the worker). */
async function compareStrategies(viewId: number): Promise<void> {
  if (useTokens.getState().equivalents?.viewId === viewId) return;
  useTokens.setState({ equivalents: { viewId, result: null } });
  try {
    const result = await client().request({ type: "equivalents", view: viewId }).promise;
    if (useTokens.getState().equivalents?.viewId === viewId) useTokens.setState({ equivalents: { viewId, result } });
  } catch {
    // The view went away or the comparison failed: the picker just says nothing about it.
    if (useTokens.getState().equivalents?.viewId === viewId) useTokens.setState({ equivalents: null });
  }
}
