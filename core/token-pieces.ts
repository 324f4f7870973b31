/**
 * Keeps every token count linear in the text's length, whatever its shape.
 *
 * A BPE tokenizer first splits text into pieces with its pre-tokenizer regex
 * (words, runs of 1–3 digits, runs of punctuation, whitespace) and then merges
 * the bytes of each piece; the merge of the JavaScript tokenizers is
 * quadratic in the piece's length. Ordinary text has short pieces, but a
 * session can hold one piece of 100,000s of characters: CJK prose without
 * spaces, a run of one letter, a line of `====`, emoji, a long whitespace
 * run. Counting a 200 KB such message took 20 s.
 *
 * So a piece longer than `MAX_PIECE_CHARS` is counted in chunks of that
 * length. Everything else is counted exactly: the text is cut only at the
 * piece boundaries the pre-tokenizer itself finds, and BPE never merges
 * across pieces, so the sum over the cuts is the exact count. Only the long
 * pieces differ, each chunk boundary possibly splitting one token in two;
 * docs/tokens.md gives the measured difference per shape.
 */

/** Longest piece handed to the BPE whole (UTF-16 code units). */
export const MAX_PIECE_CHARS = 256;

/** o200k_base's pre-tokenizer, as the encoding defines it (tiktoken's `o200k_base` pattern). */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
const O200K_PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}*${LOWER}+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}+${LOWER}*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join("|"),
  "gu",
);

/**
 * A piece longer than the limit is a run of more than the limit of
 * non-whitespace or of whitespace characters, so text without such a run is
 * counted whole, with no scan of ours. (A run of letters as short as the
 * limit is matched at each of its positions: at most the limit's steps a
 * character, a native regex step each.)
 */
function mayHoldLongPiece(limit: number): RegExp {
  return new RegExp(String.raw`\S{${limit + 1}}|\s{${limit + 1}}`);
}
const LONG_RUN_AT_DEFAULT = mayHoldLongPiece(MAX_PIECE_CHARS);

export interface TextPart {
  text: string;
  /** A single pre-tokenizer piece longer than the limit (counted in chunks). */
  long: boolean;
}

/**
 * The text cut at its long pieces: the parts between them (exact when counted
 * whole) and each long piece on its own. Concatenated, the parts are the text.
 */
export function partsAtLongPieces(text: string, limit = MAX_PIECE_CHARS): TextPart[] {
  const longRun = limit === MAX_PIECE_CHARS ? LONG_RUN_AT_DEFAULT : mayHoldLongPiece(limit);
  if (text.length <= limit || !longRun.test(text)) return [{ text, long: false }];
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of text.matchAll(O200K_PIECES)) {
    const piece = match[0];
    if (piece.length <= limit) continue;
    const at = match.index;
    if (at > from) parts.push({ text: text.slice(from, at), long: false });
    parts.push({ text: piece, long: true });
    from = at + piece.length;
  }
  if (from < text.length || parts.length === 0) parts.push({ text: text.slice(from), long: false });
  return parts;
}

/** A long piece in chunks of at most `limit` code units, never splitting a surrogate pair. */
export function chunksOf(piece: string, limit = MAX_PIECE_CHARS): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < piece.length;) {
    let end = Math.min(start + limit, piece.length);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff && end - 1 > start) end--;
    chunks.push(piece.slice(start, end));
    start = end;
  }
  return chunks;
}

export interface BoundedCount {
  tokens: number;
  /** Characters that were in long pieces (0: the count is exact). */
  charsInLongPieces: number;
}

/** Counts `text` with `exact`, handing it no piece longer than the limit. */
export function countBounded(text: string, exact: (text: string) => number, limit = MAX_PIECE_CHARS): BoundedCount {
  let tokens = 0;
  let charsInLongPieces = 0;
  for (const part of partsAtLongPieces(text, limit)) {
    if (!part.long) {
      tokens += exact(part.text);
      continue;
    }
    charsInLongPieces += part.text.length;
    for (const chunk of chunksOf(part.text, limit)) tokens += exact(chunk);
  }
  return { tokens, charsInLongPieces };
}
