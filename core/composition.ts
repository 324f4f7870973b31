/**
 * What a context is made of, by category of the model's view, in tokens: the
 * one implementation behind the app's composition bar and the report's (they
 * used to compute it twice, with different arithmetic, and disagreed).
 * Also the token stats a checkpoint carries.
 */
import type { FormatName, Message } from "./model.ts";
import { CATEGORY_LABELS, type ViewCategory } from "./model-view.ts";
import { O200K, contextTokens, uncachedMessageTotal, type Tokenizer } from "./tokens.ts";

export interface CompositionPart {
  category: ViewCategory;
  label: string;
  tokens: number;
  /** Characters of the same text (for displays that still draw by characters). */
  chars: number;
  /** Of `tokens`, how many are estimated (chars ÷ 4) because the count's time budget ran out (0: all o200k). */
  estimated: number;
}

/**
 * What the app's worker may spend tokenizing when it shows a new view. The
 * messages it has not reached by then are estimated (chars ÷ 4, labelled as
 * such), which for the 100 MB bench session costs another ~250 ms: 0.14–0.22×
 * of loading that session on this shared machine, under a tenth of load plus
 * compaction (`npm run bench`, docs/tokens.md). What was counted is cached per
 * message, so later views finish the job.
 */
export const LOAD_COUNT_BUDGET_MS = 100;

const CATEGORY_ORDER = Object.keys(CATEGORY_LABELS) as ViewCategory[];

/**
 * Parts with tokens, largest first (ties in a fixed category order, so the
 * output is deterministic). With `budgetMs`, messages the tokenizer has not
 * reached when it is spent are estimated (see CompositionPart.estimated).
 */
export function composition(messages: readonly Message[], format: FormatName, options: { tokenizer?: Tokenizer; budgetMs?: number } = {}): CompositionPart[] {
  const deadline = options.budgetMs === undefined ? undefined : performance.now() + options.budgetMs;
  const tokens = contextTokens(messages, format, options.tokenizer ?? O200K, deadline);
  return CATEGORY_ORDER.filter((category) => (tokens.byCategory[category] ?? 0) > 0)
    .map((category) => ({
      category,
      label: CATEGORY_LABELS[category],
      tokens: tokens.byCategory[category]!,
      chars: tokens.charsByCategory[category] ?? 0,
      estimated: tokens.estimatedByCategory[category] ?? 0,
    }))
    .sort((a, b) => b.tokens - a.tokens || CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category));
}

export interface TokenStats {
  /** Model-view tokens of the checkpoint's active view. */
  activeTokens: number;
  /** Model-view tokens of the branch it was made from. */
  originalTokens: number;
}

/**
 * The token stats of a checkpoint: both views counted by the same model-view
 * rule and tokenizer. With `cache: false` the counts are the same but the
 * per-message cache is not filled: a message in both views (kept as it was)
 * is remembered for this call only.
 */
export function tokenStats(
  branch: readonly Message[],
  active: readonly Message[],
  format: FormatName,
  tokenizer: Tokenizer = O200K,
  options: { cache?: boolean } = {},
): TokenStats {
  if (options.cache !== false) return { activeTokens: contextTokens(active, format, tokenizer).total, originalTokens: contextTokens(branch, format, tokenizer).total };
  const inActive = new Set(active);
  const tally = new TokenStatsTally(format, tokenizer);
  const shared = new Map<Message, number>();
  for (const message of branch) {
    const tokens = tally.addOriginal(message);
    if (inActive.has(message)) shared.set(message, tokens);
  }
  for (const message of active) tally.addActive(message, shared.get(message));
  return tally.stats();
}

/**
 * The uncached token stats counted a message at a time (tokenStats with
 * `cache: false`, and the CLI's streamed compaction): a message in both
 * views is counted once and its count handed to addActive.
 */
export class TokenStatsTally {
  private originalTokens = 0;
  private activeTokens = 0;

  constructor(
    private readonly format: FormatName,
    private readonly tokenizer: Tokenizer = O200K,
  ) {}

  /** Counts a branch message; returns its tokens. */
  addOriginal(message: Message): number {
    const tokens = uncachedMessageTotal(message, this.format, this.tokenizer);
    this.originalTokens += tokens;
    return tokens;
  }

  /** Counts an active-view message; `known`: its tokens when it is a branch message counted already. */
  addActive(message: Message, known?: number): void {
    this.activeTokens += known ?? uncachedMessageTotal(message, this.format, this.tokenizer);
  }

  stats(): TokenStats {
    return { activeTokens: this.activeTokens, originalTokens: this.originalTokens };
  }
}
