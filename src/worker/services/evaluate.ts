/**
 * The checkride and repeated compaction of the branch on screen, through
 * core's one evaluation loop (core/evaluate/): the strategy on screen is
 * graded on the checkpoint the screen shows (its cap, its round).
 */
import type { CheckrideResult } from "../../../core/checkride/run.ts";
import type { EndpointConfig, EndpointSettings } from "../../../core/endpoint.ts";
import { checkrideSession } from "../../../core/evaluate/evaluate.ts";
import { deriveDistractor, runRounds } from "../../../core/evaluate/rounds.ts";
import { sessionCwd } from "../../../core/session-info.ts";
import type { CheckrideParams, ResponseMap, RoundsParams } from "../protocol.ts";
import type { TaskContext } from "../task.ts";
import type { Screen } from "../screen.ts";
import type { CheckrideOptions } from "../../../core/checkride/run.ts";

/** The endpoint reader's fetch (the worker proxies it through the page). */
export type Fetch = typeof fetch;

export function withFetch(settings: EndpointSettings | undefined, fetchImpl: Fetch): EndpointConfig | undefined {
  return settings ? { ...settings, fetch: fetchImpl } : undefined;
}

/** A memory.md the user chose, read here in the worker. */
export async function readMemory(memory: File | string | undefined): Promise<string | undefined> {
  return memory === undefined || typeof memory === "string" ? memory : await memory.text();
}

/** Lets a cancel that arrived meanwhile be read before the next step. */
const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The local reader's model (loaded once per file, here in the worker) and its per-probe progress. */
async function localReader(params: CheckrideParams, task?: TaskContext): Promise<Pick<CheckrideOptions, "localModel" | "onLocalProgress">> {
  if (params.reader !== "local") return {};
  if (!params.localModel) throw new Error("the local reader needs a model file (.gguf): pick one");
  task?.progress({ stage: "checkride", loaded: 0, total: params.strategies.length, label: `loading ${params.localModel.name}` });
  // Loaded on first use: llama.cpp's WebAssembly glue stays out of the worker until a local checkride runs.
  const { browserLocalModel } = await import("./local-model.ts");
  const localModel = await browserLocalModel(params.localModel);
  return {
    localModel,
    onLocalProgress: (step) => {
      // A cancel is heard between probes: each is one model run, seconds to minutes long.
      task?.checkCancelled();
      task?.progress({
        stage: "checkride",
        loaded: params.strategies.indexOf(step.strategy),
        total: params.strategies.length,
        label: `${step.strategy}: probe ${step.done}/${step.total} answered by ${localModel.identity.name} (${step.promptTokens.toLocaleString("en-US")} prompt tokens, ${(step.ms / 1000).toFixed(1)} s)`,
      });
    },
  };
}

export async function checkrideScreen({ loaded, view }: Screen, params: CheckrideParams, fetchImpl: Fetch, task?: TaskContext): Promise<CheckrideResult[]> {
  const { session, summary } = loaded;
  return checkrideSession(session, {
    strategies: params.strategies,
    leafId: view.summary.leafId,
    strategyOptions: view.summary.options,
    source: { name: summary.name, bytes: summary.bytes, sha256: summary.sha256 },
    checkride: {
      reader: params.reader,
      endpoint: withFetch(params.endpoint, fetchImpl),
      memory: await readMemory(params.memory),
      cwd: sessionCwd(session),
      edits: params.edits,
      ...(await localReader(params, task)),
    },
    summaryEndpoint: withFetch(params.summaryEndpoint, fetchImpl),
    reuse: (name) => (name === view.checkpoint.strategy.name ? view.checkpoint : undefined),
    progress: task
      ? async ({ done, total, label }) => {
          task.progress({ stage: "checkride", loaded: done, total, label });
          await yieldToEvents();
          task.checkCancelled();
        }
      : undefined,
  });
}

/** Repeated compaction of the branch on screen, N rounds per strategy, literal checkride per round. */
export async function roundsOnScreen({ loaded, view }: Screen, params: RoundsParams): Promise<ResponseMap["rounds"]> {
  const { session } = loaded;
  const branch = session.branch(view.summary.leafId);
  const plant = params.plant && params.plant.text.trim() ? params.plant : undefined;
  const results = await runRounds(branch, params.strategies, params.rounds, {
    reader: "literal",
    strategyOptions: view.summary.options,
    plant,
    context: { cwd: sessionCwd(session) },
  });
  return { results, distractor: plant ? plant.distractor || deriveDistractor(plant.text) : null };
}
