/**
 * A context's text prepared for the literal reader's searches, and the cache
 * that lets one audit prepare each message once.
 *
 * Every probe item scans the whole context. Line by line, normalizing each
 * line for each context, that was most of an audit's time: an audited
 * compaction runs three checkrides (what the agent kept, what transparent
 * would have kept, what stood before) over mostly the same messages, and the
 * next compaction's before repeats most of them again. Here each message's
 * normalized lines are joined into one string once per audit (ContextTexts),
 * and a search is one native `indexOf` per message whose hit is mapped back
 * to its line. The answers are those of the line-by-line scan: a normalized
 * line holds no "\n" (normalizeText folds every whitespace run into a space),
 * so no hit spans two lines, and "\n" reads as a word boundary exactly as a
 * line's ends did.
 */
import type { Message } from "../model.ts";
import { messageLines, type ContextLine } from "./context.ts";
import { isWordChar, normalizedCoverage, normalizeText } from "./tokens.ts";

const SEPARATOR = "\n";
/** normalizeText's folding within each line: runs without a line break that are not already one space. */
const LINE_WHITESPACE_TO_FOLD = /[^\S\n]{2,}|[^\S\n ]/g;

/** The lines of one message (or of consecutive lines of one message id), normalized and joined. */
class TextUnit {
  /** normalizeText of each line, joined by the separator. */
  readonly joined: string;
  private readonly starts: number[] = [];
  private whole?: ContextLine;
  private lastHits?: Map<string, number>;
  private wordHits?: Map<string, readonly number[]>;

  constructor(readonly lines: readonly ContextLine[]) {
    if (lines.some((line) => line.text.includes(SEPARATOR))) {
      // Only lines handed in as such can hold one (a message's lines are split at it): normalize each on its own.
      this.joined = lines.map((line) => normalizeText(line.text)).join(SEPARATOR);
    } else {
      // One pass over the message instead of one per line: lowercasing does not look past a line break
      // (the final-sigma rule stops at it), and folding only the whitespace runs that hold no line break
      // is normalizeText line by line.
      this.joined = this.raw.toLowerCase().replace(LINE_WHITESPACE_TO_FOLD, " ");
    }
    for (let at = 0; at !== -1; at = this.joined.indexOf(SEPARATOR, at)) {
      if (this.starts.length > 0) at += SEPARATOR.length;
      this.starts.push(at);
    }
  }

  private get raw(): string {
    return this.lines.map((line) => line.text).join(SEPARATOR);
  }

  get messageId(): string {
    return this.lines[0]!.messageId;
  }

  /** The unit's lines as one pseudo-line: what "the message" is to the reader. */
  get asMessage(): ContextLine {
    return (this.whole ??= { messageId: this.messageId, text: this.raw });
  }

  /** The line holding offset `at` of the joined text. */
  lineAt(at: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Where the line after `line` starts (past the end for the last one). */
  nextStart(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1]! : this.joined.length + 1;
  }

  /** Offset of the last occurrence of `lower` in the joined text, or -1. */
  lastIndexOf(lower: string): number {
    if (this.joined.length < REMEMBER_FROM) return this.joined.lastIndexOf(lower);
    let at = (this.lastHits ??= new Map()).get(lower);
    if (at === undefined) this.lastHits.set(lower, (at = this.joined.lastIndexOf(lower)));
    return at;
  }

  /** This unit's lines (0-based, each once, in order) holding `token` as a whole word. */
  linesWithWord(token: string): readonly number[] {
    if (this.joined.length < REMEMBER_FROM) return this.scanWord(token);
    let lines = (this.wordHits ??= new Map()).get(token);
    if (lines === undefined) this.wordHits.set(token, (lines = this.scanWord(token)));
    return lines;
  }

  private scanWord(token: string): readonly number[] {
    const text = this.joined;
    let lines: number[] | undefined;
    for (let at = text.indexOf(token); at !== -1;) {
      if ((at > 0 && isWordChar(text, at - 1)) || (at + token.length < text.length && isWordChar(text, at + token.length))) {
        at = text.indexOf(token, at + 1);
        continue;
      }
      const line = this.lineAt(at);
      (lines ??= []).push(line);
      at = text.indexOf(token, this.nextStart(line));
    }
    return lines ?? NO_LINES;
  }
}

const NO_LINES: readonly number[] = [];
/**
 * A unit at least this long remembers its searches. The three checkrides of
 * a compaction look for the same items (one answer key) in many of the same
 * messages, and a third of the text the literal reader scanned was a unit
 * searched again for the same word (measured on a generated library); below
 * this size a search costs less than remembering it.
 */
const REMEMBER_FROM = 4096;

/**
 * Each message's text unit, made once: one per audit (or per checkride when
 * none is shared), so the prepared text lives as long as the audit, not the
 * session. Messages are never edited in place (a strategy that changes one
 * makes a new object), so an entry cannot go stale.
 */
export class ContextTexts {
  private readonly units = new WeakMap<Message, TextUnit | null>();

  unitOf(message: Message): TextUnit | null {
    let unit = this.units.get(message);
    if (unit === undefined) {
      const lines = messageLines(message);
      this.units.set(message, (unit = lines.length === 0 ? null : new TextUnit(lines)));
    }
    return unit;
  }
}

export class ContextIndex {
  readonly lines: readonly ContextLine[];
  /** Index in `lines` of each unit's first line. */
  private readonly firstLine: number[] = [];
  private messages?: TextUnit[][];
  private readonly wordLines = new Map<string, number[]>();

  private constructor(private readonly units: readonly TextUnit[]) {
    const lines: ContextLine[] = [];
    for (const unit of units) {
      this.firstLine.push(lines.length);
      for (const line of unit.lines) lines.push(line);
    }
    this.lines = lines;
  }

  static ofMessages(active: readonly Message[], texts: ContextTexts = new ContextTexts()): ContextIndex {
    const units: TextUnit[] = [];
    for (const message of active) {
      const unit = texts.unitOf(message);
      if (unit) units.push(unit);
    }
    return new ContextIndex(units);
  }

  /** Lines given as such (tests, other callers): consecutive lines of one message id make a unit. */
  static ofLines(lines: readonly ContextLine[]): ContextIndex {
    const units: TextUnit[] = [];
    for (let start = 0; start < lines.length;) {
      let end = start + 1;
      while (end < lines.length && lines[end]!.messageId === lines[start]!.messageId) end++;
      units.push(new TextUnit(lines.slice(start, end)));
      start = end;
    }
    return new ContextIndex(units);
  }

  /** Index of the last line containing `needle` (case-insensitive), or -1. */
  lastLineContaining(needle: string): number {
    const lower = needle.toLowerCase();
    if (lower === "") return this.lines.length - 1;
    if (lower.includes(SEPARATOR)) return -1;
    for (let u = this.units.length - 1; u >= 0; u--) {
      const unit = this.units[u]!;
      const at = unit.lastIndexOf(lower);
      if (at !== -1) return this.firstLine[u]! + unit.lineAt(at);
    }
    return -1;
  }

  /** Indexes of every line containing `needle` (case-insensitive), in order. */
  allLinesContaining(needle: string): number[] {
    const lower = needle.toLowerCase();
    if (lower === "") return this.lines.map((_, i) => i);
    if (lower.includes(SEPARATOR)) return [];
    const out: number[] = [];
    this.units.forEach((unit, u) => {
      for (let at = unit.joined.indexOf(lower); at !== -1;) {
        const line = unit.lineAt(at);
        out.push(this.firstLine[u]! + line);
        at = unit.joined.indexOf(lower, unit.nextStart(line));
      }
    });
    return out;
  }

  /**
   * The latest line with the highest share of `tokens` as whole words (a
   * token counts where no letter or digit touches it, as normalizedCoverage
   * reads it), if that share is at least `threshold`.
   */
  bestLine(tokens: readonly string[], threshold: number): ContextLine | undefined {
    if (tokens.length === 0) return undefined;
    const found = new Uint32Array(this.lines.length);
    for (const token of tokens) for (const line of this.linesWithWord(token)) found[line]!++;
    // As the line scan did: from the end, a strictly better score replaces the best, a full one ends the search.
    let best = -1;
    let bestScore = 0;
    for (let i = found.length - 1; i >= 0; i--) {
      const score = found[i]! / tokens.length;
      if (score > bestScore) {
        best = i;
        bestScore = score;
        if (score === 1) break;
      }
    }
    return best !== -1 && bestScore >= threshold ? this.lines[best] : undefined;
  }

  /**
   * Indexes of the lines holding `token` as a whole word, each once, made once
   * per token: the items of one probe (a session's rules) share many words.
   */
  private linesWithWord(token: string): number[] {
    let lines = this.wordLines.get(token);
    if (lines) return lines;
    lines = [];
    for (let u = 0; u < this.units.length; u++) {
      const first = this.firstLine[u]!;
      for (const line of this.units[u]!.linesWithWord(token)) lines.push(first + line);
    }
    this.wordLines.set(token, lines);
    return lines;
  }

  /**
   * The latest message whose text best covers `tokens`, as one pseudo-line
   * (its lines joined). Read on the lines' joined normalized text: a token
   * holds no whitespace, so it stands in it exactly where it stands in the
   * message's own normalized text (the two differ only in whitespace runs).
   */
  bestMessage(tokens: readonly string[], threshold: number): ContextLine | undefined {
    if (tokens.length === 0) return undefined;
    const messages = this.messageUnits();
    let best: ContextLine | undefined;
    let bestScore = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      const group = messages[i]!;
      const text = group.length === 1 ? group[0]!.joined : group.map((unit) => unit.joined).join(SEPARATOR);
      const score = normalizedCoverage(text, tokens);
      if (score > bestScore) {
        best = group.length === 1 ? group[0]!.asMessage : { messageId: group[0]!.messageId, text: group.map((unit) => unit.asMessage.text).join("\n") };
        bestScore = score;
        if (score === 1) break;
      }
    }
    return bestScore >= threshold ? best : undefined;
  }

  /** Consecutive units of one message id read as one message. */
  private messageUnits(): TextUnit[][] {
    if (this.messages) return this.messages;
    const groups: TextUnit[][] = [];
    for (const unit of this.units) {
      const last = groups[groups.length - 1];
      if (last && last[0]!.messageId === unit.messageId) last.push(unit);
      else groups.push([unit]);
    }
    return (this.messages = groups);
  }
}
