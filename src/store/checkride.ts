/** The checkride panel: settings, a run over the chosen strategies, repeated compaction. */
import { chosenStrategies, client, endpointSettings, get, messageOf, ready, set, summaryEndpoint, viewId, type CheckrideSettings, type CheckrideState } from "./state.ts";

export function setCheckride(changes: Partial<CheckrideState>): void {
  set((state) => ({ checkride: { ...state.checkride, ...changes } }));
}

export function setCheckrideSettings(changes: Partial<CheckrideSettings>): void {
  set((state) => ({ checkride: { ...state.checkride, settings: { ...state.checkride.settings, ...changes } } }));
}

export function setRounds(changes: Partial<CheckrideState["rounds"]>): void {
  set((state) => ({ checkride: { ...state.checkride, rounds: { ...state.checkride.rounds, ...changes } } }));
}

export async function runCheckride(only?: string[]): Promise<void> {
  if (!ready()) return;
  const view = get().view!;
  const settings = get().checkride.settings;
  setCheckride({ running: true, error: null });
  try {
    const results = await client().request({
      type: "checkride",
      view: view.id,
      params: {
        strategies: only ?? chosenStrategies(),
        reader: settings.reader,
        endpoint: settings.reader === "endpoint" ? endpointSettings() : undefined,
        memory: settings.memory ?? undefined,
        summaryEndpoint: summaryEndpoint(),
      },
    }).promise;
    if (get().view !== view) return; // the view changed while we ran
    const current = results.find((r) => r.strategy === view.strategy);
    const history = get().checkride.history.filter((h) => !(h.round === view.round && h.strategy === view.strategy && h.reader === settings.reader));
    if (current) history.push({ round: view.round, strategy: current.strategy, reader: current.reader, passed: current.passed, asked: current.asked });
    setCheckride({ running: false, results, history });
  } catch (error) {
    setCheckride({ running: false, error: messageOf(error) });
  }
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
