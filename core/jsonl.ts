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
  const records: JsonLine[] = [];
  const warnings: LoadWarning[] = [];
  let start = 0;
  let lineNo = 0;
  const length = text.length;
  while (start <= length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = length;
    lineNo++;
    let lineEnd = end;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    if (lineEnd > start && !isBlank(text, start, lineEnd)) {
      const raw = text.slice(start, lineEnd);
      try {
        records.push({ line: lineNo, value: JSON.parse(raw) });
      } catch (error) {
        const parts = splitRunTogether(raw);
        if (parts) {
          warnings.push({ line: lineNo, message: `${parts.length} JSON objects on one line; split them` });
          for (const value of parts) records.push({ line: lineNo, value });
        } else {
          const reason = end === length && lineNo > 1 ? "the last line is cut off or is not JSON" : "not valid JSON";
          const detail = error instanceof Error ? ` (${error.message.slice(0, 120)})` : "";
          if (strict) throw new SessionError(lineNo, reason + detail);
          warnings.push({ line: lineNo, message: `${reason}; skipped${detail}` });
        }
      }
    }
    if (end === length) break;
    start = end + 1;
  }
  return { records, warnings };
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
      if (c === 92) i++; // backslash: skip the escaped character
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
