/**
 * JSON Lines splitting. Linear in the input: one pass of indexOf over the
 * text and one JSON.parse per line. Handles LF and CRLF, a missing final
 * newline, blank lines, and the `{...}{...}` run-together lines that real
 * Claude Code files contain.
 */
import { SessionError, type LoadWarning } from "./model.ts";

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonLinesResult {
  records: JsonLine[];
  warnings: LoadWarning[];
}

export function parseJsonLines(text: string, strict: boolean): JsonLinesResult {
  const parser = new JsonLinesParser(strict);
  parser.push(text);
  return parser.finish();
}

/**
 * The same parse, fed text in pieces as it arrives (a file read in slices):
 * whole lines are parsed as soon as they are complete, a line cut by a piece
 * boundary waits for the rest. Any split of a text gives the same result as
 * the whole text at once.
 */
export class JsonLinesParser {
  private readonly records: JsonLine[] = [];
  private readonly warnings: LoadWarning[] = [];
  /** The start of the line the last piece ended in. */
  private partial = "";
  private lineNo = 0;
  private finished = false;
  /** Lines with something on them. */
  contentLines = 0;

  /** Line breaks pushed so far (before finish): the line a new piece starts on is this plus one. */
  get lineBreaks(): number {
    return this.lineNo;
  }
  /** Whether the first line with content was one JSON value (JSONL's first record, not a pretty-printed "{"). */
  firstLineIsJson = false;

  /**
   * With `sink`, each record is handed over as soon as it is parsed instead of
   * collected (finish then returns no records): a reader can turn it into its
   * entry and let it go.
   */
  /**
   * `skipLine`: lines it says yes to are counted but not parsed (a second read
   * that wants only some records: core/compact-stream.ts).
   */
  constructor(
    private readonly strict: boolean,
    private readonly sink?: (record: JsonLine) => void,
    private readonly skipLine?: (line: number) => boolean,
  ) {}

  push(text: string): void {
    if (this.finished) throw new Error("JsonLinesParser: push after finish");
    let start = 0;
    let end = text.indexOf("\n");
    if (end === -1) {
      this.partial += text;
      return;
    }
    if (this.partial !== "") {
      this.line(this.partial + text.slice(0, end), false);
      this.partial = "";
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    for (; end !== -1; end = text.indexOf("\n", start)) {
      this.line(text.slice(start, end), false);
      start = end + 1;
    }
    this.partial = text.slice(start);
  }

  /** The warnings of the lines parsed so far (before finish: a line still being written has none yet). */
  get warningsSoFar(): readonly LoadWarning[] {
    return this.warnings;
  }

  finish(): JsonLinesResult {
    if (!this.finished) {
      this.finished = true;
      this.line(this.partial, true);
      this.partial = "";
    }
    return { records: this.records, warnings: this.warnings };
  }

  /** One line without its "\n"; `last` for the text after the final newline (possibly empty). */
  private line(raw: string, last: boolean): void {
    this.lineNo++;
    const lineNo = this.lineNo;
    const content = raw.length > 0 && raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (content === "" || isBlank(content, 0, content.length)) return;
    this.contentLines++;
    if (this.skipLine?.(lineNo)) return;
    const first = this.contentLines === 1;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      const parts = splitRunTogether(content);
      if (parts) {
        this.warnings.push({ line: lineNo, message: `${parts.length} JSON objects on one line; split them` });
        for (const part of parts) this.emit({ line: lineNo, value: part });
      } else {
        const reason = last && lineNo > 1 ? "the last line is cut off or is not JSON" : "not valid JSON";
        const detail = error instanceof Error ? ` (${error.message.slice(0, 120).replace(/\s+/g, " ")})` : "";
        if (this.strict) throw new SessionError(lineNo, reason + detail);
        this.warnings.push({ line: lineNo, message: `${reason}; skipped${detail}` });
      }
      return;
    }
    if (first) this.firstLineIsJson = true;
    this.emit({ line: lineNo, value });
  }

  private emit(record: JsonLine): void {
    if (this.sink) this.sink(record);
    else this.records.push(record);
  }
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) return false;
  }
  return true;
}

/**
 * Splits `{...}{...}` (top-level objects written back to back) at brace depth
 * zero, honouring strings and escapes. Returns null unless every part parses.
 */
export function splitRunTogether(raw: string): unknown[] | null {
  const parts: unknown[] = [];
  let depth = 0;
  let inString = false;
  let partStart = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (depth === 0) partStart = i;
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        try {
          parts.push(JSON.parse(raw.slice(partStart, i + 1)));
        } catch {
          return null;
        }
        partStart = -1;
      }
    } else if (depth === 0 && c !== 32 && c !== 9) {
      return null;
    }
  }
  return depth === 0 && parts.length > 1 ? parts : null;
}
