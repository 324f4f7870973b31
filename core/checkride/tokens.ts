/**
 * Token handling shared by fact extraction, the literal reader and grading:
 * case-insensitive, punctuation-tolerant ("works." and "works" are one token,
 * `npm` in backticks is `npm`), with a small stop list so that grading looks
 * at the words that carry the fact.
 */
const STOP = new Set(
  "a an and are as at be but by can could did do does for from had has have he her his how i if in into is it its just let me my no not of on or our she so than that the their them then there these they this to too up us was we were what when where which who will with would you your yes ok okay please now also there here all any some each out about over very".split(
    " ",
  ),
);

/** Lowercase, with punctuation at either end of each word removed. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(WHITESPACE_TO_FOLD, " ");
}

/**
 * Whitespace runs that are not already one space: folding `/\s+/g` would
 * replace every single space with itself, one match per word of the text.
 */
const WHITESPACE_TO_FOLD = /\s{2,}|[^\S ]/g;

/** Words of 3+ characters (keeping inner dots, slashes, dashes: paths and versions), minus stop words. */
export function distinctiveTokens(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.toLowerCase().split(/[\s`"'()[\]{}<>,;:!?*|=，。、！？：；（）「」]+/u)) {
    const token = raw.replace(/^[^\p{L}\p{N}#]+|[^\p{L}\p{N}]+$/gu, "");
    if (token.length < 3 || STOP.has(token) || seen.has(token)) continue;
    seen.add(token);
    out.push(token);
  }
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** ASCII letters and digits by char code: most characters a search lands beside are ASCII, and the regex costs more than the search. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, code) => (WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 0));

/** A letter or digit of any script (what "whole word" means to the literal reader and the grader). */
export function isWordChar(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code < 128 ? ASCII_WORD[code] === 1 : WORD_CHAR.test(text[at]!);
}

/** Does `haystack` (already normalized) contain `token` as a whole word-ish unit? */
export function containsToken(haystack: string, token: string): boolean {
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(token, from);
    if (at === -1) return false;
    const wordBefore = at > 0 && isWordChar(haystack, at - 1);
    const wordAfter = at + token.length < haystack.length && isWordChar(haystack, at + token.length);
    if (!wordBefore && !wordAfter) return true;
    from = at + 1;
  }
}

export function tokenCoverage(haystack: string, tokens: readonly string[]): number {
  return normalizedCoverage(normalizeText(haystack), tokens);
}

/** tokenCoverage of a haystack already passed through normalizeText (callers that ask many times keep it). */
export function normalizedCoverage(normalized: string, tokens: readonly string[]): number {
  if (tokens.length === 0) return 0;
  let found = 0;
  for (const token of tokens) if (containsToken(normalized, token)) found++;
  return found / tokens.length;
}

/** An answer that says it does not know passes nothing. */
const DONT_KNOW =
  /\b(i (do not|don't|dont) know|not (stated|mentioned|present|available|in the context)|no information|unknown|cannot (tell|determine)|can't (tell|determine)|n\/a)\b/i;

export function saysItDoesNotKnow(answer: string): boolean {
  return answer.trim() === "" || (DONT_KNOW.test(answer) && answer.length < 200);
}

export function basename(path: string): string {
  const parts = path.split("/");
  return parts[parts.length - 1] ?? path;
}
