/**
 * The one evaluation loop: every requested strategy compacts the same branch
 * and each of its checkride targets is graded against the same facts. The
 * app's worker, the CLI's `checkride`, the audit report and the tables all
 * go through here, so their scores cannot disagree.
 */
import type { Checkpoint, CheckpointSource } from "../checkpoint.ts";
import { extractFacts } from "../checkride/facts.ts";
import { runCheckride, type CheckrideOptions, type CheckrideResult } from "../checkride/run.ts";
import { factOptions } from "../checkride/session.ts";
import { compactSession } from "../compact.ts";
import type { EndpointConfig } from "../endpoint.ts";
import type { Session } from "../model.ts";
import { sessionCwd } from "../session-info.ts";
import { STRATEGIES } from "../strategies/index.ts";
import { checkrideTargets } from "./targets.ts";

export interface EvaluationRequest {
  strategies: readonly string[] | "all";
  leafId?: string | null;
  /** The same options for every strategy (e.g. the prose cap). */
  strategyOptions?: Record<string, unknown>;
  /** Written into each checkpoint's source; the scores do not depend on it. */
  source?: Pick<CheckpointSource, "name" | "bytes" | "sha256">;
  checkride: CheckrideOptions;
  /** A model for the strategies' summary slots (pi-default, handoff). */
  summaryEndpoint?: EndpointConfig;
  /** A checkpoint already made for this strategy (the app's view on screen, with its round): graded instead of compacting again. */
  reuse?: (strategy: string) => Checkpoint | undefined;
  /** Told before each strategy and after each graded target; may throw to cancel (awaited, so it may yield). */
  progress?: (step: { done: number; total: number; label: string }) => void | Promise<void>;
}

export interface StrategyEvaluation {
  strategy: string;
  checkpoint: Checkpoint;
  /** One result per checkride target: a tiered strategy's tiers first, then its whole active view. */
  results: CheckrideResult[];
}

const NO_SOURCE = { name: "", bytes: 0, sha256: "" };

/** Strategy by strategy, in the order asked; a generator so a caller keeps only what it needs of each checkpoint. */
export async function* evaluateSession(session: Session, request: EvaluationRequest): AsyncGenerator<StrategyEvaluation> {
  const names = request.strategies === "all" ? STRATEGIES.map((s) => s.name) : request.strategies;
  const leafId = request.leafId ?? session.defaultLeafId;
  const branch = session.branch(leafId);
  const options = { ...request.checkride, cwd: request.checkride.cwd ?? sessionCwd(session) };
  const facts = extractFacts(branch, factOptions(session, options.cwd, options.memory));
  let done = 0;
  const total = names.length;
  for (const name of names) {
    await request.progress?.({ done, total, label: `compacting with ${name}` });
    const checkpoint =
      request.reuse?.(name) ??
      (await compactSession(session, request.source ?? NO_SOURCE, { strategy: name, options: request.strategyOptions ?? {}, leafId, endpoint: request.summaryEndpoint }));
    const results: CheckrideResult[] = [];
    for (const target of checkrideTargets(checkpoint)) {
      await request.progress?.({ done, total, label: `grading ${target.name}` });
      const result = await runCheckride(target.name, branch, target.needsModel ? [] : target.active, { ...options, reader: target.needsModel ? "literal" : options.reader }, facts);
      results.push(target.needsModel ? needsModel(result, target.needsModel, options.reader) : result);
    }
    done++;
    await request.progress?.({ done, total, label: `graded ${name}` });
    yield { strategy: name, checkpoint, results };
  }
}

/** A target that cannot be graded without a model: every probe skipped with the reason, not a failure. */
function needsModel(result: CheckrideResult, reason: string, reader: CheckrideResult["reader"]): CheckrideResult {
  const probes = result.probes.map((p) => ({
    ...p,
    status: "skipped" as const,
    answer: "",
    evidence: [],
    matched: [],
    note: reason,
    facts: p.facts?.map(({ met: _met, ...f }) => f),
  }));
  return { ...result, reader, probes, passed: 0, asked: 0, needsModel: reason };
}

/** The checkride alone: every result of every strategy, in order. */
export async function checkrideSession(session: Session, request: EvaluationRequest): Promise<CheckrideResult[]> {
  const results: CheckrideResult[] = [];
  for await (const evaluation of evaluateSession(session, request)) results.push(...evaluation.results);
  return results;
}
