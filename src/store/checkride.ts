/** The checkride panel: settings, a run over the chosen strategies, repeated compaction. */
import type { CheckrideResult } from "../../core/checkride/run.ts";
import { EngineError } from "../worker/client.ts";
import type { ViewSummary } from "../worker/protocol.ts";
import { editsParam } from "./deep-links.ts";
import {
  chosenStrategies,
  client,
  endpointSettings,
  get,
  messageOf,
  ready,
  set,
  summaryEndpoint,
  viewId,
  type AppState,
  type CheckrideSettings,
  type CheckrideState,
} from "./state.ts";

export function setCheckride(changes: Partial<CheckrideState>): void {
  set((state) => ({ checkride: { ...state.checkride, ...changes } }));
}

export function setCheckrideSettings(changes: Partial<CheckrideSettings>): void {
  set((state) => ({ checkride: { ...state.checkride, settings: { ...state.checkride.settings, ...changes } } }));
}

export function setRounds(changes: Partial<CheckrideState["rounds"]>): void {
  set((state) => ({ checkride: { ...state.checkride, rounds: { ...state.checkride.rounds, ...changes } } }));
}

/** What a checkride's results depend on: the view (branch, strategy, options, round), the reader, the strategies asked, the key's edits. */
export function checkrideKey(
  state: Pick<AppState, "sessionSerial" | "sessionRevision" | "checkride">,
  view: Pick<ViewSummary, "leafId" | "strategy" | "options" | "round">,
  strategies: string[],
): string {
  const { settings, edits } = state.checkride;
  const reader =
    settings.reader === "endpoint"
      ? `endpoint:${settings.endpointUrl}:${settings.model}`
      : settings.reader === "local"
        ? `local:${settings.localModel?.name}:${settings.localModel?.size}:${settings.localModel?.lastModified}`
        : "literal";
  return JSON.stringify([
    state.sessionSerial,
    state.sessionRevision,
    view.leafId,
    view.strategy,
    view.options,
    view.round,
    reader,
    settings.summaries,
    settings.memory?.name ?? null,
    strategies,
    editsParam(edits),
  ]);
}

/** The checkride part of a new view's state: its cached results, or a word on why the old ones went. */
export function checkrideForView(view: ViewSummary, previous: ViewSummary | null): Partial<CheckrideState> {
  const state = get();
  const cached = state.checkride.cache[checkrideKey(state, view, chosenStrategies())] ?? null;
  const had = state.checkride.results !== null;
  const cleared =
    cached || !had || !previous
      ? null
      : previous.strategy !== view.strategy
        ? `The results were for ${previous.strategy}; the view now shows ${view.strategy}. Run the checkride again for it.`
        : previous.round !== view.round
          ? "The view was recompacted: the results were for the previous round. Run the checkride again."
          : "The view changed (branch or prose cap): the results were for the previous view. Run the checkride again.";
  return { results: cached, error: null, cleared, focused: null };
}

export async function runCheckride(only?: string[]): Promise<void> {
  if (!ready() || get().checkride.task) return;
  const view = get().view!;
  const settings = get().checkride.settings;
  const strategies = only ?? chosenStrategies();
  const key = checkrideKey(get(), view, strategies);
  const cached = get().checkride.cache[key];
  if (cached) {
    setCheckride({ results: cached, error: null, cleared: null });
    return;
  }
  const pending = client().request(
    {
      type: "checkride",
      view: view.id,
      params: {
        strategies,
        reader: settings.reader,
        endpoint: settings.reader === "endpoint" ? endpointSettings() : undefined,
        localModel: settings.reader === "local" ? (settings.localModel ?? undefined) : undefined,
        memory: settings.memory ?? undefined,
        summaryEndpoint: summaryEndpoint(),
        edits: get().checkride.edits,
      },
    },
    (progress) => {
      const task = get().checkride.task;
      if (task?.id === pending.id) setCheckride({ task: { ...task, done: progress.loaded, total: progress.total, label: progress.label ?? "" } });
    },
  );
  setCheckride({ running: true, error: null, cleared: null, task: { id: pending.id, done: 0, total: strategies.length, label: "starting" } });
  try {
    const results: CheckrideResult[] = await pending.promise;
    if (get().checkride.task?.id !== pending.id) return;
    if (get().view !== view) return setCheckride({ running: false, task: null }); // the view changed while we ran
    const current = results.find((r) => r.strategy === view.strategy);
    const history = get().checkride.history.filter((h) => !(h.round === view.round && h.strategy === view.strategy && h.reader === settings.reader));
    if (current) history.push({ round: view.round, strategy: current.strategy, reader: current.reader, passed: current.passed, asked: current.asked });
    setCheckride({ running: false, task: null, results, history, cache: { ...get().checkride.cache, [key]: results } });
  } catch (error) {
    if (get().checkride.task?.id !== pending.id) return;
    const cancelled = error instanceof EngineError && error.cancelled;
    setCheckride({ running: false, task: null, error: cancelled ? null : messageOf(error) });
  }
}

/** Stop the running checkride; the results on screen stay as they were. */
export function cancelCheckride(): void {
  const task = get().checkride.task;
  if (!task) return;
  client().cancel(task.id);
  setCheckride({ running: false, task: null });
}

export async function runRoundsNow(): Promise<void> {
  if (!ready()) return;
  const { count, plantText, plantAt } = get().checkride.rounds;
  // The recorded compaction is what the file holds: it has no rounds of its own.
  const strategies = chosenStrategies().filter((n) => n !== "recorded");
  setRounds({ running: true, error: null });
  try {
    const result = await client().request({
      type: "rounds",
      view: viewId(),
      params: { strategies, rounds: count, plant: plantText.trim() ? { text: plantText.trim(), at: plantAt } : undefined },
    }).promise;
    setRounds({ running: false, result });
  } catch (error) {
    setRounds({ running: false, error: messageOf(error) });
  }
}
