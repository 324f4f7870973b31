/**
 * Format dispatch. A file is either one JSON value (a message array, a
 * `{messages}` wrapper, a Gemini CLI session, an OpenCode export, a Cline
 * api_conversation_history) or JSON Lines (Pi, Claude Code, Codex, Copilot
 * CLI, Gemini CLI). Which format it is comes from recognise.ts.
 */
import type { Entry, FormatName } from "../model.ts";
import { SessionError } from "../model.ts";
import { JsonLinesParser, parseJsonLines, type JsonLine, type JsonLinesResult } from "../jsonl.ts";
import { ClaudeReader, readClaude } from "./claude.ts";
import { readCline } from "./cline.ts";
import { looksLikeClineUiLog, readClineUiLog } from "./cline-ui.ts";
import { looksLikeAiderHistory, readAider } from "./aider.ts";
import { readQwen } from "./qwen.ts";
import { readCursor } from "./cursor.ts";
import { CodexReader, readCodex } from "./codex.ts";
import { isRecord, type ReaderOutput } from "./common.ts";
import { readCopilot } from "./copilot.ts";
import { readGeminiJson, readGeminiLines } from "./gemini.ts";
import { findMessageArray, readMessageArray } from "./messages.ts";
import { readOpenCode } from "./opencode.ts";
import { readKiro } from "./kiro.ts";
import { looksLikePi, PiReader, readPi } from "./pi.ts";
import { acceptingJsonLines, acceptingJsonValue, DETECTION_RECORDS, describeShape, JSON_LINES_RECOGNISERS, JSON_VALUE_RECOGNISERS, refusal } from "./recognise.ts";

export const FORMAT_NAMES: readonly FormatName[] = ["pi", "claude", "codex", "openai", "anthropic", "gemini", "cline", "opencode", "copilot", "aider", "qwen", "cursor", "kiro"];

/** Formats whose file is one JSON value; the others are JSON Lines (Gemini is both). */
const JSON_VALUE_FORMATS: readonly FormatName[] = ["openai", "anthropic", "cline", "gemini", "opencode", "kiro"];

export function isFormatName(name: string): name is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(name);
}

export function readAnyFormat(text: string, options: { format?: FormatName; strict: boolean }): ReaderOutput {
  const { strict } = options;
  // Aider's chat history is Markdown, recognised by its run heading (core/formats/aider.ts).
  if (options.format === "aider" || (options.format === undefined && looksLikeAiderHistory(text))) {
    if (!looksLikeAiderHistory(text)) throw new SessionError(1, 'this is not an Aider chat history (it does not open with "# aider chat started at")');
    return readAider(text);
  }
  if (/^\s*</.test(text.slice(0, 200))) {
    throw new SessionError(1, "this is an HTML or XML document, not a session file");
  }
  const single = parseSingleJson(text);
  if (single !== undefined) {
    const forced = options.format;
    if (forced !== undefined && JSON_VALUE_FORMATS.includes(forced)) return readJsonValue(forced, single.value, strict);
    const accepted = forced === undefined ? acceptingJsonValue(single.value) : [];
    if (accepted.length === 1) return readJsonValue(accepted[0]!, single.value, strict);
    if (forced !== undefined && findMessageArray(single.value)) {
      throw new SessionError(1, `this is a JSON message array, not a ${forced} session`);
    }
    // One JSON object on one line may still be a one-line JSONL file: fall through.
    if (!single.oneLine || Array.isArray(single.value) || accepted.length > 1) {
      throw new SessionError(1, refusal(describeShape(single.value), accepted, JSON_VALUE_RECOGNISERS));
    }
  }

  if (strict) return readJsonLinesRecords(parseJsonLines(text, strict), options);
  const reader = new JsonLinesReader(options.format);
  const parser = new JsonLinesParser(false, reader.add);
  parser.push(text);
  return reader.finish(parser.finish());
}

/** One JSON value read by the format's own reader. */
export function readJsonValue(format: FormatName, value: unknown, strict: boolean): ReaderOutput {
  switch (format) {
    case "gemini":
      // A JSONL chat that is only its header line is one JSON value too.
      return isRecord(value) && !Array.isArray(value.messages) ? readGeminiLines([{ line: 1, value }], strict) : readGeminiJson(value, strict);
    case "opencode":
      return readOpenCode(value, strict);
    case "kiro":
      return readKiro(value, strict);
    case "cline":
      // A UI log alone (ui_messages.json without its history) or the history.
      return looksLikeClineUiLog(value) ? readClineUiLog(value, strict) : readCline({ history: value }, strict);
    case "openai":
    case "anthropic": {
      const found = findMessageArray(value);
      if (!found) throw new SessionError(1, `a ${format} session is a message array or an object with a "messages" array`);
      return readMessageArray(found, format, strict);
    }
    default:
      throw new SessionError(1, `a ${format} session is JSON Lines, but this file is one JSON value`);
  }
}

/**
 * Reads JSON Lines records as the parser produces them (lenient mode). A Pi
 * file, known from its first record, is read record by record so parsed
 * records die young; any other format is collected and read at the end.
 * Gives exactly what readJsonLinesRecords gives for the same records
 * (test/core/session-stream.test.ts compares them on every fixture).
 */
export class JsonLinesReader {
  /** The reader taking records one at a time, once the format is known: Pi from its first record, Claude Code and Codex (outlines only) from their first 50. */
  private streaming: PiReader | ClaudeReader | CodexReader | undefined;
  private readonly collected: JsonLine[] = [];

  /**
   * `outline`: the entries of a Pi, Claude Code or Codex session are kept as
   * outlines (see PiReader's mapEntry; core/outline.ts); other formats are
   * read whole.
   */
  constructor(
    private readonly format: FormatName | undefined,
    private readonly outline?: (entry: Entry) => Entry,
  ) {}

  get hasRecords(): boolean {
    return this.streaming !== undefined || this.collected.length > 0;
  }

  /** Whether the entries read are outlines. */
  get outlined(): boolean {
    return this.streaming !== undefined && this.outline !== undefined;
  }

  readonly add = (record: JsonLine): void => {
    if (this.streaming) return this.streaming.add(record);
    if (this.collected.length === 0 && (this.format ?? "pi") === "pi" && looksLikePi(record.value)) {
      this.streaming = new PiReader(record, false, this.outline);
      return;
    }
    this.collected.push(record);
    // Detection reads the first DETECTION_RECORDS records: from then on the format is what the whole file's would be.
    if (!this.outline || this.collected.length !== DETECTION_RECORDS) return;
    const format = formatOfJsonLines(this.collected, this.format);
    const reader = format === "claude" ? new ClaudeReader(false, this.outline) : format === "codex" ? new CodexReader(false, this.outline) : undefined;
    if (!reader) return;
    for (const collected of this.collected) reader.add(collected);
    this.collected.length = 0;
    this.streaming = reader;
  };

  /** The reader's output, given what the parser saw (its warnings come first, as in readJsonLinesRecords). */
  finish(parsed: JsonLinesResult): ReaderOutput {
    if (!this.streaming) return readJsonLinesRecords({ records: this.collected, warnings: parsed.warnings }, { format: this.format, strict: false });
    const output = this.streaming.finish();
    output.warnings.unshift(...parsed.warnings);
    return output;
  }
}

/** The format readJsonLinesRecords reads these records as, or undefined where it refuses them. */
function formatOfJsonLines(records: JsonLine[], format: FormatName | undefined): FormatName | undefined {
  try {
    if (format) {
      refuseOtherFormat(format, records);
      return format;
    }
    return detectJsonLines(records);
  } catch {
    return undefined;
  }
}

/** JSON Lines already split into records (whole or as it streamed in) → the reader its format needs. */
export function readJsonLinesRecords({ records, warnings }: JsonLinesResult, options: { format?: FormatName; strict: boolean }): ReaderOutput {
  const { strict } = options;
  if (records.length === 0) {
    const firstProblem = warnings[0];
    throw new SessionError(firstProblem?.line ?? 1, firstProblem ? `no JSON records: ${firstProblem.message}` : "no JSON records in the file");
  }
  const format = options.format ?? detectJsonLines(records);
  if (options.format) refuseOtherFormat(options.format, records);
  const output = readJsonLines(format, records, strict);
  output.warnings.unshift(...warnings);
  return output;
}

function readJsonLines(format: FormatName, records: JsonLine[], strict: boolean): ReaderOutput {
  switch (format) {
    case "pi":
      return readPi(records, strict);
    case "claude":
      return readClaude(records, strict);
    case "codex":
      return readCodex(records, strict);
    case "copilot":
      return readCopilot(records, strict);
    case "gemini":
      return readGeminiLines(records, strict);
    case "qwen":
      return readQwen(records, strict);
    case "cursor":
      return readCursor(records, strict);
    default:
      throw new SessionError(records[0]!.line, `a ${format} session is one JSON value, but this file is JSON Lines`);
  }
}

/**
 * A format forced by the user (--format) on records that are plainly another
 * format: read as claude, a Pi file gave an empty session without a word.
 * The override stands when its format also fits, or when nothing is detected.
 */
function refuseOtherFormat(format: FormatName, records: JsonLine[]): void {
  if (acceptingJsonLines(records).includes(format)) return;
  let detected: FormatName;
  try {
    detected = detectJsonLines(records);
  } catch {
    return;
  }
  if (detected !== format) throw new SessionError(records[0]!.line, `--format ${format}, but this is a ${detected} session (leave out --format, or give --format ${detected})`);
}

export function detectJsonLines(records: JsonLine[]): FormatName {
  const accepted = acceptingJsonLines(records);
  if (accepted.length === 1) return accepted[0]!;
  throw new SessionError(records[0]!.line, refusal(`JSON Lines whose first record is ${describeShape(records[0]!.value)}`, accepted, JSON_LINES_RECOGNISERS));
}

/**
 * The whole text as one JSON value, when it is one. Cheap to rule out: a JSONL
 * file fails at the first character of its second record.
 */
function parseSingleJson(text: string): { value: unknown; oneLine: boolean } | undefined {
  let start = 0;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  const first = text[start];
  if (first !== "[" && first !== "{") return undefined;
  const body = text.trim();
  const oneLine = !body.includes("\n");
  if (first === "{" && !oneLine) {
    // JSONL's first line is a complete object; a pretty-printed object's is not.
    const firstLine = body.slice(0, body.indexOf("\n"));
    try {
      JSON.parse(firstLine);
      return undefined;
    } catch {
      // fall through to parsing the whole text
    }
  }
  try {
    return { value: JSON.parse(body), oneLine };
  } catch (error) {
    if (first === "[") {
      // V8 quotes the text around the fault, line breaks included: keep the reason on one line.
      const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
      const found = lineOfJsonError(body, detail);
      // `body` starts at the first character with content: count the blank lines before it too.
      const line = found === 0 ? 0 : found + (text.slice(0, start).match(/\n/g)?.length ?? 0);
      // Some V8 messages carry no position ("Unexpected token ']', … is not valid JSON"): say so rather than blame line 1.
      throw new SessionError(line, `not valid JSON (${detail.slice(0, 160)})${line === 0 ? " (position unknown)" : ""}`);
    }
    return undefined;
  }
}

/** V8 reports "at position N" (and sometimes "line L column C"): turn that into a line; 0 when it gives no position. */
function lineOfJsonError(text: string, message: string): number {
  const lineMatch = /line (\d+)/.exec(message);
  if (lineMatch) return Number(lineMatch[1]);
  const position = /position (\d+)/.exec(message);
  // The text ends too early: the problem is on its last line.
  const index = position ? Number(position[1]) : /end of JSON input/.test(message) ? text.length : -1;
  if (index === -1) return 0;
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
