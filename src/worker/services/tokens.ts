/**
 * The token figures of a view: model-view tokens (core/tokens.ts, the same
 * count the CLI's `compact` stats and the report use) of the original branch
 * and of the active context, their composition, and the file's own usage at
 * its last turn beside the model-view count of that same context.
 *
 * Two ways in: `budgetedTokens` while a view is built (on a clock; what the
 * tokenizer has not reached is estimated and says so), and `exactTokens`
 * on request afterwards (counted in slices, cached per message, so the
 * worker keeps answering and the page swaps its estimates for the count).
 */
import { LOAD_COUNT_BUDGET_MS, composition } from "../../../core/composition.ts";
import type { Message, Session } from "../../../core/model.ts";
import { O200K, TOKENIZER_LABEL, contextTokens, countInSlices, loadTokenizer, messageTokens, tokenizerLoaded } from "../../../core/tokens.ts";
import { usageAgainstView } from "../../../core/usage/summary.ts";
import type { RowProjection, ViewTokenFigures } from "../protocol.ts";
import type { Screen } from "../screen.ts";
import type { PaneModel } from "../projection.ts";

/** Figures on the load's clock: the usage comparison waits for the exact count. */
export function budgetedTokens(session: Session, branch: readonly Message[], active: readonly Message[]): ViewTokenFigures {
  const deadline = performance.now() + LOAD_COUNT_BUDGET_MS;
  const parts = composition(active, session.format, { budgetMs: LOAD_COUNT_BUDGET_MS });
  const activeCount = contextTokens(active, session.format, O200K, deadline);
  const originalCount = contextTokens(branch, session.format, O200K, deadline);
  return {
    tokenizer: TOKENIZER_LABEL,
    exact: activeCount.estimated === 0 && originalCount.estimated === 0,
    original: originalCount.total,
    active: activeCount.total,
    estimated: { original: originalCount.estimated, active: activeCount.estimated },
    composition: parts,
    usage: null,
  };
}

/** Every figure counted with the tokenizer (slices of 10 ms, so other requests get their turn). */
export async function exactTokens(screen: Screen, signal?: { readonly aborted: boolean }): Promise<ViewTokenFigures> {
  const { session } = screen.loaded;
  // The panes' own messages: a strategy view's are its branch and checkpoint; an audit view's are the
  // contexts just before and just after the recorded compaction (its checkpoint is the strategy's behind it).
  const branch = screen.view.original.messages;
  const activeContext = screen.view.active.messages;
  const original = await countInSlices(branch, session.format, { signal });
  const active = await countInSlices(activeContext, session.format, { signal });
  const leaf = screen.view.summary.leafId ?? session.defaultLeafId;
  const against = usageAgainstView(session, leaf);
  const last = against.last;
  return {
    tokenizer: TOKENIZER_LABEL,
    exact: true,
    original: original.total,
    active: active.total,
    estimated: { original: 0, active: 0 },
    composition: composition(activeContext, session.format),
    usage: {
      turns: against.series.turns.length,
      last: last
        ? { line: last.line, recorded: last.contextTokens, input: last.input, cacheRead: last.cacheRead, cacheWrite: last.cacheWrite, modelView: against.lastTurnViewTokens ?? 0 }
        : null,
      notInTranscriptAtFirstTurn: against.notInTranscriptAtFirstTurn,
      contextWindow: against.series.contextWindow,
      notes: against.series.notes,
    },
  };
}

/** Each row's model-view tokens, once the tokenizer is there (cached per message; rows fetched before it come again). */
export function withRowTokens(rows: RowProjection[], pane: PaneModel, session: Session): RowProjection[] {
  if (!tokenizerLoaded()) {
    void loadTokenizer();
    return rows;
  }
  for (const row of rows) {
    const message = pane.messages[row.index];
    if (message) row.tokens = messageTokens(message, session.format).total;
  }
  return rows;
}
