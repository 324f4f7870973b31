/**
 * The one place the audit measures a context: tokens of the model's view
 * (core/model-view.ts, core/tokens.ts), the same count the stats, the
 * composition and the report use. The o200k tokenizer when it is loaded
 * (auditSession loads it first); before that, characters ÷ 4, and the unit
 * says so, so an estimate is never shown as a count.
 */
import type { FormatName, Message } from "../model.ts";
import { CHARS_QUARTER, O200K, contextTokens, tokenizerLoaded, type Tokenizer } from "../tokens.ts";

export interface ContextSize {
  /** The tokenizer's own label ("o200k tokens; …" or "estimated tokens (characters ÷ 4), …"). */
  unit: string;
  tokens: number;
}

export function sizeTokenizer(): Tokenizer {
  return tokenizerLoaded() ? O200K : CHARS_QUARTER;
}

export function contextSize(messages: readonly Message[], format: FormatName, tokenizer: Tokenizer = sizeTokenizer()): number {
  return contextTokens(messages, format, tokenizer).total;
}
