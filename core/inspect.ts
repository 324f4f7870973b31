/** The `inspect` summary: what the CLI prints and the app's header shows. */
import type { Session, UsageTurn } from "./model.ts";
import { CHARS_QUARTER, O200K, contextTokens, tokenizerLoaded } from "./tokens.ts";
import { usageAgainstView } from "./usage/summary.ts";

type TurnFigures = Pick<UsageTurn, "line" | "input" | "output" | "cacheRead" | "cacheWrite">;

export interface InspectSummary {
  format: string;
  formatVersion: string | null;
  leafId: string | null;
  leaves: string[];
  branchMessages: number;
  recordedContextMessages: number;
  toolCalls: number;
  branchToolCalls: number;
  warnings: { line: number; message: string }[];
  /** The file's own usage records on the branch, as read (never estimated). */
  usage: {
    turns: TurnFigures[];
    last: (TurnFigures & { contextTokens: number }) | null;
    contextWindow: number | null;
    notes: string[];
  };
  /** Model-view tokens (core/model-view.ts) of the branch, of the recorded context, and of what the model read on the last recorded turn. */
  modelViewTokens: { branch: number; recorded: number; lastTurn: number | null; tokenizer: string };
}

/** Counts with o200k once `loadTokenizer()` has resolved (the CLI awaits it), else with the labelled chars ÷ 4 fallback. */
export function inspectSession(session: Session, leafId: string | null = null): InspectSummary {
  const tokenizer = tokenizerLoaded() ? O200K : CHARS_QUARTER;
  const leaf = leafId ?? session.defaultLeafId;
  const branch = session.branch(leaf);
  const recorded = session.recordedContext(leaf).messages;
  const branchCalls = new Set<string>();
  for (const message of branch) for (const block of message.blocks) if (block.type === "toolCall") branchCalls.add(block.id);
  const { series: usage, last, lastTurnViewTokens } = usageAgainstView(session, leaf, tokenizer);
  return {
    format: session.format,
    formatVersion: session.formatVersion ?? null,
    leafId: leaf,
    leaves: session.leaves,
    branchMessages: branch.length,
    recordedContextMessages: recorded.length,
    toolCalls: session.toolCallIds.size,
    branchToolCalls: branchCalls.size,
    warnings: session.warnings,
    usage: {
      turns: usage.turns.map(figures),
      last: last ? { ...figures(last), contextTokens: last.contextTokens } : null,
      contextWindow: usage.contextWindow,
      notes: usage.notes,
    },
    modelViewTokens: {
      branch: contextTokens(branch, session.format, tokenizer).total,
      recorded: contextTokens(recorded, session.format, tokenizer).total,
      lastTurn: lastTurnViewTokens,
      tokenizer: tokenizer.label,
    },
  };
}

function figures(turn: UsageTurn): TurnFigures {
  return { line: turn.line, input: turn.input, output: turn.output, cacheRead: turn.cacheRead, cacheWrite: turn.cacheWrite };
}
