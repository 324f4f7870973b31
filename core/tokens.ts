/**
 * Token counts of the model's view (core/model-view.ts) with a real
 * tokenizer: o200k_base from gpt-tokenizer (imported from its encoding entry
 * so only that table is bundled). Counted lazily, per message, and cached by
 * message object: messages are shared between a branch and its active views,
 * so recompaction and a second look cost nothing. `characters ÷ 4` stays as
 * a fallback the UI names.
 *
 * The o200k table is 2.4 MB of JavaScript that took 0.3–4 s to import on this
 * shared machine, so it is imported on first need (`loadTokenizer`), never at
 * start: CLI commands that count nothing do not pay for it, and the app's
 * bundle keeps it in a chunk of its own.
 */
import type { FormatName, Message } from "./model.ts";
import { messageSegments, type ViewCategory } from "./model-view.ts";
import { MAX_PIECE_CHARS, countBounded } from "./token-pieces.ts";

export interface Tokenizer {
  name: "o200k_base" | "chars/4";
  /** How to label a count made with it. */
  label: string;
  count(text: string): number;
}

export const TOKENIZER_LABEL = "o200k tokens; Claude's own tokenizer differs by a few percent";
/** Where a count is not the exact o200k count, and by how much (docs/tokens.md has the measurements). */
export const LONG_PIECE_NOTE = `a run of more than ${MAX_PIECE_CHARS} characters without a break (CJK without spaces, a repeated character, a long rule line) is counted in ${MAX_PIECE_CHARS}-character pieces, within 1% of its exact count`;
export const FALLBACK_LABEL = "estimated tokens (characters ÷ 4), not a tokenizer";

// Session text may quote special tokens ("<|endoftext|>"): the model reads them as plain text.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

let o200kCount: ((text: string) => number) | undefined;
let loading: Promise<void> | undefined;

/** Imports the o200k table once; counting with O200K before it resolves is an error. */
export function loadTokenizer(): Promise<void> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((module) => {
    const exact = (text: string) => module.countTokens(text, AS_PLAIN_TEXT);
    // The library's merge is quadratic in a piece's length: bound every piece (core/token-pieces.ts).
    o200kCount = (text) => countBounded(text, exact).tokens;
  });
  return loading;
}

export function tokenizerLoaded(): boolean {
  return o200kCount !== undefined;
}

export const O200K: Tokenizer = {
  name: "o200k_base",
  label: TOKENIZER_LABEL,
  count: (text) => {
    if (text === "") return 0;
    if (!o200kCount) throw new Error("the o200k tokenizer is not loaded yet (await loadTokenizer() first)");
    return o200kCount(text);
  },
};

export const CHARS_QUARTER: Tokenizer = {
  name: "chars/4",
  label: FALLBACK_LABEL,
  count: (text) => Math.ceil(text.length / 4),
};

export interface ViewTokens {
  total: number;
  byCategory: Partial<Record<ViewCategory, number>>;
  /** Characters of the view's text (what chars ÷ 4 would be computed from). */
  chars: number;
  charsByCategory: Partial<Record<ViewCategory, number>>;
  /** Opaque content (encrypted reasoning, images): bytes, never tokens. */
  opaqueBytes: number;
  /**
   * Of `total`, tokens estimated as characters ÷ 4 because a time budget ran
   * out before the tokenizer reached their messages (0: all counted). Only
   * counts made with a deadline have any; the estimate is labelled as such.
   */
  estimated: number;
  estimatedByCategory: Partial<Record<ViewCategory, number>>;
}

interface CacheSlot {
  format: FormatName;
  tokenizer: Tokenizer;
  tokens: ViewTokens;
}

/** Per message object; a message belongs to one session, so one slot per tokenizer is enough. */
const cache = new WeakMap<Message, CacheSlot[]>();

/** The model-view tokens of one message, counted once and cached. */
export function messageTokens(message: Message, format: FormatName, tokenizer: Tokenizer = O200K): ViewTokens {
  let slots = cache.get(message);
  const hit = slots?.find((slot) => slot.format === format && slot.tokenizer === tokenizer);
  if (hit) return hit.tokens;
  const tokens = countMessage(message, format, tokenizer);
  if (!slots) cache.set(message, (slots = []));
  slots.push({ format, tokenizer, tokens });
  return tokens;
}

/**
 * Gives `to` the counts already made for `from`: the same message read again as another object
 * (a followed file's first look reads the bytes the session was opened from). The caller vouches
 * that the two are the same message; a count made for `to` already stays.
 */
export function carryTokenCounts(from: Message, to: Message): void {
  const slots = cache.get(from);
  // The same slots, not a copy: the two are one message, so a count added for either holds for both, and
  // a first look at a 100 MB session does not leave 100,000 new arrays for the next look's collections.
  if (slots && !cache.has(to)) cache.set(to, slots);
}

function countMessage(message: Message, format: FormatName, tokenizer: Tokenizer): ViewTokens {
  return addSegments(emptyTokens(), message, format, tokenizer, false);
}

/** Adds a message's view to `into` (no per-message object: the estimate path runs over 100,000s of messages). */
function addSegments(into: ViewTokens, message: Message, format: FormatName, tokenizer: Tokenizer, estimated: boolean): ViewTokens {
  for (const segment of messageSegments(message, format)) {
    if (segment.opaque) into.opaqueBytes += segment.opaque.bytes;
    if (segment.text === "") continue;
    const count = tokenizer.count(segment.text);
    const category = segment.category;
    into.total += count;
    into.chars += segment.text.length;
    into.byCategory[category] = (into.byCategory[category] ?? 0) + count;
    into.charsByCategory[category] = (into.charsByCategory[category] ?? 0) + segment.text.length;
    if (estimated) {
      into.estimated += count;
      into.estimatedByCategory[category] = (into.estimatedByCategory[category] ?? 0) + count;
    }
  }
  return into;
}

/**
 * The model-view tokens of a whole context: the sum of its messages'. With a
 * `deadline` (a performance.now() time), messages not yet counted when it
 * passes are estimated (chars ÷ 4, reported in `estimated`) instead of
 * tokenized, so a caller on a clock (the worker's load) stays within it;
 * what was counted stays cached and later calls finish the job. On a clock
 * before the tokenizer is loaded, everything is estimated and loading starts.
 */
export function contextTokens(messages: readonly Message[], format: FormatName, tokenizer: Tokenizer = O200K, deadline?: number): ViewTokens {
  if (deadline !== undefined && tokenizer === O200K && !tokenizerLoaded()) {
    // On a clock and the table not there yet: estimate everything now, and have it ready next time.
    void loadTokenizer();
    deadline = -Infinity;
  }
  const start = summedStartOf(messages, format, tokenizer);
  const sum = start ? copyTokens(start.sum) : emptyTokens();
  const keepAt = messages.length >= SUMMED_START_MIN ? messages.length - SUMMED_START_TAIL : -1;
  let kept: ViewTokens | undefined;
  for (let index = start?.upTo ?? 0; index < messages.length; index++) {
    if (index === keepAt) kept = copyTokens(sum);
    const message = messages[index]!;
    if (deadline !== undefined && !isCached(message, format, tokenizer) && performance.now() > deadline) {
      // Estimated, and not cached: the cache is for what the tokenizer counted.
      addSegments(sum, message, format, CHARS_QUARTER, true);
      continue;
    }
    const tokens = messageTokens(message, format, tokenizer);
    sum.total += tokens.total;
    sum.chars += tokens.chars;
    sum.opaqueBytes += tokens.opaqueBytes;
    for (const key in tokens.byCategory) {
      const category = key as ViewCategory;
      sum.byCategory[category] = (sum.byCategory[category] ?? 0) + tokens.byCategory[category]!;
      sum.charsByCategory[category] = (sum.charsByCategory[category] ?? 0) + tokens.charsByCategory[category]!;
    }
  }
  // Only a start the tokenizer counted whole is kept: an estimate is not a figure to go on from.
  if (kept && kept.estimated === 0) rememberSummedStart(messages, format, tokenizer, keepAt, kept);
  return sum;
}

/**
 * The sums of the last few long contexts' starts (all but their last SUMMED_START_TAIL messages),
 * so that a context that starts with the same messages (a followed session's branch after it grew;
 * its view, whose kept messages are the same objects) is summed from where that start ends. The
 * end is left out because it is what a growth may replace (a streamed line merged into the message
 * before). Held weakly: a start never keeps a closed session's messages alive. A message's count
 * never changes (messageTokens caches it), so the sum of the same messages is the same sum.
 */
interface SummedStart {
  messages: WeakRef<readonly Message[]>;
  format: FormatName;
  tokenizer: Tokenizer;
  upTo: number;
  sum: ViewTokens;
}
const summedStarts: SummedStart[] = [];
// Eight: a look sums a branch, its view and the last turn's context, and Follow's first look hands two
// more over (carrySummedStarts); with four, the branch handed over was pushed out before the next look.
const SUMMED_STARTS_KEPT = 8;
/** Contexts shorter than this are summed whole: walking them costs less than keeping their start. */
const SUMMED_START_MIN = 2048;
const SUMMED_START_TAIL = 64;

function summedStartOf(messages: readonly Message[], format: FormatName, tokenizer: Tokenizer): SummedStart | undefined {
  if (messages.length < SUMMED_START_MIN) return undefined;
  return summedStarts.find((start) => {
    if (start.format !== format || start.tokenizer !== tokenizer || start.upTo > messages.length) return false;
    const earlier = start.messages.deref();
    if (!earlier) return false;
    if (earlier === messages) return true;
    for (let i = 0; i < start.upTo; i++) if (earlier[i] !== messages[i]) return false;
    return true;
  });
}

/**
 * Gives `to` the sums of starts kept for `from`: the same messages read again as other objects, whose
 * counts carryTokenCounts handed over (a followed file's first look). The caller vouches for that.
 */
export function carrySummedStarts(from: readonly Message[], to: readonly Message[]): void {
  for (const start of summedStarts.slice()) {
    if (start.messages.deref() !== from || start.upTo > to.length) continue;
    rememberSummedStart(to, start.format, start.tokenizer, start.upTo, start.sum);
  }
}

function rememberSummedStart(messages: readonly Message[], format: FormatName, tokenizer: Tokenizer, upTo: number, sum: ViewTokens): void {
  const same = summedStarts.findIndex((start) => start.messages.deref() === messages && start.format === format && start.tokenizer === tokenizer);
  if (same !== -1) summedStarts.splice(same, 1);
  summedStarts.unshift({ messages: new WeakRef(messages), format, tokenizer, upTo, sum });
  summedStarts.length = Math.min(summedStarts.length, SUMMED_STARTS_KEPT);
}

function copyTokens(tokens: ViewTokens): ViewTokens {
  return {
    ...tokens,
    byCategory: { ...tokens.byCategory },
    charsByCategory: { ...tokens.charsByCategory },
    estimatedByCategory: { ...tokens.estimatedByCategory },
  };
}

/**
 * One message's total, taken from the cache when it is there but never put
 * in it: for a caller that counts each message once and keeps nothing (the
 * CLI's `compact`), where the cache's per-message records were kept to the
 * end of the process for nothing, about 0.36 bytes per byte of session.
 */
export function uncachedMessageTotal(message: Message, format: FormatName, tokenizer: Tokenizer = O200K): number {
  const slot = cache.get(message)?.find((slot) => slot.format === format && slot.tokenizer === tokenizer);
  return slot ? slot.tokens.total : countMessage(message, format, tokenizer).total;
}

/** Whether a message's count for this format and tokenizer is in the cache (tests). */
export function isTokenCountCached(message: Message, format: FormatName, tokenizer: Tokenizer = O200K): boolean {
  return isCached(message, format, tokenizer);
}

function isCached(message: Message, format: FormatName, tokenizer: Tokenizer): boolean {
  return cache.get(message)?.some((slot) => slot.format === format && slot.tokenizer === tokenizer) ?? false;
}

/**
 * Counts a context in slices of `sliceMs`, yielding to the event loop between
 * them (a worker stays responsive to its other requests), and resolves to the
 * exact count. Everything counted is cached for every later call.
 */
export async function countInSlices(
  messages: readonly Message[],
  format: FormatName,
  options: { sliceMs?: number; signal?: { readonly aborted: boolean }; tokenizer?: Tokenizer } = {},
): Promise<ViewTokens> {
  const { sliceMs = 10, signal, tokenizer = O200K } = options;
  if (tokenizer === O200K) await loadTokenizer();
  // A start summed before was counted whole (see contextTokens): only what follows it can be new.
  for (let i = summedStartOf(messages, format, tokenizer)?.upTo ?? 0; i < messages.length;) {
    const until = performance.now() + sliceMs;
    // At least one message a slice, so a slice shorter than any message still makes progress.
    do messageTokens(messages[i++]!, format, tokenizer);
    while (i < messages.length && performance.now() < until);
    if (i < messages.length) await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal?.aborted) throw new Error("token count cancelled");
  }
  return contextTokens(messages, format, tokenizer);
}

function emptyTokens(): ViewTokens {
  return { total: 0, byCategory: {}, chars: 0, charsByCategory: {}, opaqueBytes: 0, estimated: 0, estimatedByCategory: {} };
}
