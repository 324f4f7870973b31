/**
 * Loading a session while its bytes are still arriving. A JSON Lines file
 * (Pi, Claude Code, Codex) is decoded and split into records slice by slice,
 * so that work overlaps the reading of the next slice; what is left at the
 * end is only the format's reader and the tree. Everything else (one JSON
 * value, bytes that do not decode, strict mode) is loaded from the whole
 * bytes at the end by loadSession, so errors and results are exactly its own.
 *
 * The input is read once: a pipe or a FIFO cannot be read again. Until the
 * bytes are known to stream (a JSON Lines record has been read and the first
 * line is not the start of one pretty-printed object) the loader keeps a copy
 * of every piece, and the whole-bytes paths load from that copy. Once they
 * stream the copy is dropped, and bytes that turn out not to decode later on
 * fail with the line decodeSessionBytes would name.
 */
import { nulTailWarning, onlyNulsAndBreaks, StreamTextPieces, type NulTail, type TextPieces } from "./decode.ts";
import { JsonLinesReader } from "./formats/detect.ts";
import { JsonLinesParser } from "./jsonl.ts";
import { SessionError, type Entry, type Session } from "./model.ts";
import { loadSession, sessionFromReader, type LoadOptions } from "./session.ts";

const BINARY = "binary data (a NUL byte): this is not a text session file";
const NOT_UTF8 = "the file is not valid UTF-8 text";

export class StreamingSessionLoader {
  private readonly decoder: TextPieces;
  /** null once the bytes are known not to be JSON Lines that can stream (the whole-bytes path decides). */
  private lines: JsonLinesParser | null;
  private readonly reader: JsonLinesReader;
  /** The text seen before its first character with content was found (whitespace only). */
  private lead = "";
  private leadDecided = false;
  /** The first character with content: "{" needs a second look at the end (one pretty-printed object?). */
  private firstChar = "";
  /** Copies of the pieces while the whole bytes may still be needed; null once the records stream. */
  private kept: Uint8Array[] | null = [];
  /** After the copy was dropped: the line of the first bad byte sequence, and of the first NUL (which wins, as in decodeSessionBytes). */
  private badText: { line: number; nul: boolean } | null = null;
  /** After bad text: the line a NUL-filled end began on, while nothing but NULs and line breaks followed. */
  private tailAfterFailure: number | undefined;
  /** A NUL-filled end of the file, once one began after the records streamed (core/decode.ts, nulTailOf). */
  private nulTail: NulTail | null = null;
  /** Line breaks in the pieces after the text stopped going to the parser. */
  private breaksAfterFailure = 0;
  /** The line of the first U+FFFD already in the text (decodeSessionBytes names the first one it sees). */
  private replacementLine = 0;
  /** After finish: whether the records came from the slices (true) or the whole bytes were loaded. */
  streamed = false;

  /** Whether the records read so far go into an outline (before finish; the whole bytes may still be loaded at the end). */
  get outlining(): boolean {
    return this.lines !== null && this.reader.outlined;
  }

  /** After finish: whether the session is an outline (a Pi, Claude Code or Codex session that streamed, with `outline`) rather than whole. */
  get outlined(): boolean {
    return this.streamed && this.reader.outlined;
  }
  /**
   * The most bytes the whole-bytes path takes: they become one string, and
   * V8's strings stop at 0x1fffffe8 units (about 512 MB). Past it, one JSON
   * value (or --strict) gets a clear error instead of "Cannot create a string
   * longer than…"; JSON Lines stream and have no such limit. Smaller for tests.
   */
  wholeLimit = 0x1fffffe8;

  /**
   * `decoder`: how pieces become text (see core/decode.ts: the fast way differs between Node and browsers).
   * `outline`: a Pi, Claude Code or Codex session that streams is read as its outline (core/outline.ts); see `outlined`.
   */
  constructor(
    private readonly options: LoadOptions = {},
    decoder: TextPieces = new StreamTextPieces(),
    outline?: (entry: Entry) => Entry,
  ) {
    this.decoder = decoder;
    // Strict mode names the first problem in file order: the whole-bytes path keeps that order exactly.
    this.reader = new JsonLinesReader(options.format, outline);
    this.lines = options.strict ? null : new JsonLinesParser(false, this.reader.add);
  }

  /** The next bytes of the file, in order. The loader copies what it keeps: the caller may reuse `chunk`. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    // A copy (`new Uint8Array` copies; Buffer#slice would be a view of memory the caller reuses).
    if (this.kept) this.kept.push(new Uint8Array(chunk));
    if (this.badText) return this.afterFailure(chunk);
    if (!this.lines) return;
    if (this.nulTail) return this.moreOfNulTail(chunk);
    const nul = chunk.indexOf(0);
    if (nul !== -1) {
      // Streaming already (the copy dropped), a NUL-filled end is read up to, as the whole-bytes path does (nulTailOf).
      if (this.kept || !onlyNulsAndBreaks(chunk, nul)) return this.fail(chunk, nul, true);
      this.push(chunk.subarray(0, nul));
      // The text before it may have been bad itself: then the tail is read as what follows bad text.
      if (this.badText || !this.lines) return this.badText ? this.afterFailure(chunk.subarray(nul)) : undefined;
      this.nulTail = { line: this.lines.lineBreaks + 1, nuls: 0, start: 0 };
      return this.moreOfNulTail(chunk.subarray(nul));
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk);
    } catch {
      return this.fail(chunk, -1, false);
    }
    if (!this.leadDecided) {
      this.lead += text;
      const at = this.lead.search(/\S/);
      if (at === -1) return;
      this.leadDecided = true;
      this.firstChar = this.lead[at]!;
      // An array, an HTML/XML page or Markdown (Aider's chat history) is never JSON Lines; the whole-bytes path reads or rejects it.
      if (this.firstChar === "[" || this.firstChar === "<" || this.firstChar === "#") return this.giveUp();
      text = this.lead;
      this.lead = "";
    }
    this.noteReplacement(text);
    this.lines.push(text);
    if (this.kept && this.streams()) this.kept = null;
  }

  /**
   * The session. `wholeBytes` gives the whole file again (the same bytes
   * pushed), for the paths that read it whole; without it the loader's own
   * copy is used (a pipe cannot be read twice).
   */
  finish(wholeBytes?: Uint8Array | (() => Uint8Array)): Session {
    const bytes = (): Uint8Array => {
      const whole = wholeBytes !== undefined ? (typeof wholeBytes === "function" ? wholeBytes() : wholeBytes) : this.kept ? concat(this.kept) : undefined;
      if (!whole) throw new Error("StreamingSessionLoader: the whole bytes were not kept");
      if (whole.length > this.wholeLimit) {
        const what = this.options.strict ? "--strict reads the file" : "a file that is not JSON Lines (one JSON value) is read";
        throw new SessionError(
          0,
          `${what} as one string, and at ${whole.length} bytes it is past the JavaScript engine's string limit (${this.wholeLimit} characters, about ${Math.round(this.wholeLimit / 2 ** 20)} MB)`,
        );
      }
      return whole;
    };
    const lines = this.lines;
    if (lines && !this.badText) {
      try {
        const rest = this.decoder.finish();
        if (!this.leadDecided) this.lead += rest;
        else if (rest) {
          this.noteReplacement(rest);
          lines.push(rest);
        }
      } catch {
        // A character cut by the end of the file.
        if (this.kept || wholeBytes !== undefined) this.giveUp();
        else this.badText = { line: this.replacementLine || lines.lineBreaks + 1, nul: false };
      }
    }
    if (this.badText) {
      if (wholeBytes !== undefined) return loadSession(bytes(), this.options);
      throw new SessionError(this.badText.line, this.badText.nul ? BINARY : NOT_UTF8);
    }
    if (!this.lines || !this.leadDecided) return loadSession(bytes(), this.options);
    // "{" starts JSON Lines only when its first line is a whole value and another line follows;
    // otherwise it may be one object holding a message array.
    if (this.firstChar === "{" && !(lines!.firstLineIsJson && lines!.contentLines > 1)) return loadSession(bytes(), this.options);
    const result = lines!.finish();
    if (!this.reader.hasRecords) return loadSession(bytes(), this.options);
    this.streamed = true;
    this.kept = null;
    const output = this.reader.finish(result);
    if (this.nulTail) output.warnings.push(nulTailWarning(this.nulTail));
    return sessionFromReader(output, false);
  }

  /** The pieces after a NUL-filled end began: NULs and line breaks only, or the file is binary after all. */
  private moreOfNulTail(chunk: Uint8Array): void {
    const tail = this.nulTail!;
    if (!onlyNulsAndBreaks(chunk, 0)) {
      this.badText = { line: tail.line, nul: true };
      this.lines = null;
      return;
    }
    for (const byte of chunk) if (byte === 0) tail.nuls++;
  }

  /** Whether finish will take the records from the slices, whatever comes next (but bad bytes). */
  private streams(): boolean {
    const lines = this.lines;
    if (!lines || !this.leadDecided || !this.reader.hasRecords) return false;
    return this.firstChar !== "{" || (lines.firstLineIsJson && lines.contentLines > 1);
  }

  /** Bytes that do not decode: the whole-bytes path says so while the copy is kept; afterwards the line is worked out here. */
  private fail(chunk: Uint8Array, nulAt: number, nul: boolean): void {
    if (this.kept) return this.giveUp();
    const base = this.lines!.lineBreaks + 1;
    if (nul) {
      this.badText = { line: base + countBreaks(chunk, nulAt), nul: true };
    } else {
      // decodeSessionBytes names the line of the first replacement character of a lenient decode.
      // Leading continuation bytes finish a character the last piece cut: they are not the fault.
      let from = 0;
      while (from < 3 && from < chunk.length && (chunk[from]! & 0xc0) === 0x80) from++;
      const text = new TextDecoder("utf-8", { fatal: false }).decode(chunk.subarray(from));
      const at = text.indexOf("\uFFFD");
      this.badText = { line: this.replacementLine || base + countBreaks(new TextEncoder().encode(text.slice(0, Math.max(0, at))), -1), nul: false };
    }
    this.breaksAfterFailure = this.lines!.lineBreaks + countBreaks(chunk, -1);
    this.lines = null;
  }

  /** After bad bytes, only a NUL later on changes the error (it is named first, wherever it is). */
  private afterFailure(chunk: Uint8Array): void {
    if (this.badText!.nul) return;
    // A NUL-filled end is no binary data (the whole-bytes path cuts it off and names the bad text before it),
    // unless text comes after it.
    if (this.tailAfterFailure !== undefined) {
      if (!onlyNulsAndBreaks(chunk, 0)) this.badText = { line: this.tailAfterFailure, nul: true };
      return;
    }
    const nul = chunk.indexOf(0);
    if (nul === -1) {
      this.breaksAfterFailure += countBreaks(chunk, -1);
      return;
    }
    const line = this.breaksAfterFailure + 1 + countBreaks(chunk, nul);
    if (onlyNulsAndBreaks(chunk, nul)) this.tailAfterFailure = line;
    else this.badText = { line, nul: true };
  }

  private noteReplacement(text: string): void {
    if (this.replacementLine) return;
    const at = text.indexOf("\uFFFD");
    if (at === -1) return;
    let line = this.lines!.lineBreaks + 1;
    for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
    this.replacementLine = line;
  }

  private giveUp(): void {
    this.lines = null;
    this.lead = "";
  }
}

/** Line breaks (byte 10) in `bytes`, before index `end` (-1: all of them). */
function countBreaks(bytes: Uint8Array, end: number): number {
  const stop = end === -1 ? bytes.length : end;
  let count = 0;
  for (let i = bytes.indexOf(10); i !== -1 && i < stop; i = bytes.indexOf(10, i + 1)) count++;
  return count;
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}
