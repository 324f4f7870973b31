/**
 * Loading a session while its bytes are still arriving. A JSON Lines file
 * (Pi, Claude Code, Codex) is decoded and split into records slice by slice,
 * so that work overlaps the reading of the next slice; what is left at the
 * end is only the format's reader and the tree. Everything else (one JSON
 * value, bytes that do not decode, strict mode) is loaded from the whole
 * bytes at the end by loadSession, so errors and results are exactly its own.
 */
import { StreamTextPieces, type TextPieces } from "./decode.ts";
import { JsonLinesReader } from "./formats/detect.ts";
import { JsonLinesParser } from "./jsonl.ts";
import type { Session } from "./model.ts";
import { loadSession, sessionFromReader, type LoadOptions } from "./session.ts";

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
  /** After finish: whether the records came from the slices (true) or the whole bytes were read again. */
  streamed = false;

  /** `decoder`: how pieces become text (see core/decode.ts: the fast way differs between Node and browsers). */
  constructor(
    private readonly options: LoadOptions = {},
    decoder: TextPieces = new StreamTextPieces(),
  ) {
    this.decoder = decoder;
    // Strict mode names the first problem in file order: the whole-bytes path keeps that order exactly.
    this.reader = new JsonLinesReader(options.format);
    this.lines = options.strict ? null : new JsonLinesParser(false, this.reader.add);
  }

  /** The next bytes of the file, in order. */
  push(chunk: Uint8Array): void {
    if (!this.lines || chunk.length === 0) return;
    // A NUL byte or invalid UTF-8: decodeSessionBytes will say so, with the line.
    if (chunk.includes(0)) return this.giveUp();
    let text: string;
    try {
      text = this.decoder.decode(chunk);
    } catch {
      return this.giveUp();
    }
    if (!this.leadDecided) {
      this.lead += text;
      const at = this.lead.search(/\S/);
      if (at === -1) return;
      this.leadDecided = true;
      this.firstChar = this.lead[at]!;
      // An array or an HTML/XML page is never JSON Lines; the whole-bytes path reads or rejects it.
      if (this.firstChar === "[" || this.firstChar === "<") return this.giveUp();
      text = this.lead;
      this.lead = "";
    }
    this.lines.push(text);
  }

  /**
   * The session. `wholeBytes` gives the whole file again (the same bytes
   * pushed), for the paths that read it whole; a caller that did not keep
   * them passes a function, called only then.
   */
  finish(wholeBytes: Uint8Array | (() => Uint8Array)): Session {
    const bytes = () => (typeof wholeBytes === "function" ? wholeBytes() : wholeBytes);
    const lines = this.lines;
    if (lines) {
      try {
        const rest = this.decoder.finish();
        if (!this.leadDecided) this.lead += rest;
        else if (rest) lines.push(rest);
      } catch {
        this.giveUp();
      }
    }
    if (!this.lines || !this.leadDecided) return loadSession(bytes(), this.options);
    // "{" starts JSON Lines only when its first line is a whole value and another line follows;
    // otherwise it may be one object holding a message array.
    if (this.firstChar === "{" && !(lines!.firstLineIsJson && lines!.contentLines > 1)) return loadSession(bytes(), this.options);
    const result = lines!.finish();
    if (!this.reader.hasRecords) return loadSession(bytes(), this.options);
    this.streamed = true;
    return sessionFromReader(this.reader.finish(result), false);
  }

  private giveUp(): void {
    this.lines = null;
    this.lead = "";
  }
}
