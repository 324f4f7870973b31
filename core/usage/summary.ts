/**
 * The file's figures beside the model's view, for one branch: what the CLI's
 * `inspect` prints and what the app's stats show (the worker calls this; it is
 * pure apart from the per-message token cache). The recorded figure includes
 * what no transcript holds (system prompt, tool definitions), so the view's
 * count of the same context is expected below it; the first turn's difference
 * is the best estimate of that part.
 */
import type { Session, UsageSeries, UsageTurn } from "../model.ts";
import { O200K, contextTokens, type Tokenizer } from "../tokens.ts";
import { contextAtTurn } from "./turn-context.ts";

export interface UsageAgainstView {
  series: UsageSeries;
  last: UsageTurn | null;
  /** Model-view tokens of what the model read on the last recorded turn. */
  lastTurnViewTokens: number | null;
  /** Recorded minus view on the first turn, when the transcript held least: the system prompt and tools, roughly. */
  notInTranscriptAtFirstTurn: number | null;
  tokenizer: string;
}

export function usageAgainstView(session: Session, leafId: string | null, tokenizer: Tokenizer = O200K): UsageAgainstView {
  const series = session.usage(leafId);
  // Only turns that state what the model read count here: Copilot CLI records output tokens on every
  // message but the context size only when a compaction starts (its other turns say 0, meaning "not recorded").
  const stated = series.turns.filter(statesContext);
  const first = stated[0];
  const last = stated.at(-1) ?? null;
  const viewAt = (turn: UsageTurn) => contextTokens(contextAtTurn(session, turn, leafId), session.format, tokenizer).total;
  return {
    series,
    last,
    lastTurnViewTokens: last ? viewAt(last) : null,
    notInTranscriptAtFirstTurn: first ? first.contextTokens - viewAt(first) : null,
    tokenizer: tokenizer.label,
  };
}

/** A turn whose record states the size of the context the model read (a real call never reads 0 tokens). */
export function statesContext(turn: UsageTurn): boolean {
  return turn.contextTokens > 0;
}
