/**
 * Which format a file is, by required fields only. Every reader has one
 * recogniser; a file is read when exactly one accepts it, and refused
 * otherwise with what was found and the formats tried. Recognisers are
 * written to exclude each other (a plain message array is OpenAI unless it
 * has an Anthropic-only block; either is Cline/Roo/Kilo only with their own
 * fields), so no order of trying decides anything.
 */
import type { FormatName } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { looksLikeClaude } from "./claude.ts";
import { looksLikeClineHistory } from "./cline.ts";
import { looksLikeClineUiLog } from "./cline-ui.ts";
import { looksLikeCodex } from "./codex.ts";
import { isRecord } from "./common.ts";
import { looksLikeCopilot } from "./copilot.ts";
import { looksLikeGeminiJson, looksLikeGeminiLines } from "./gemini.ts";
import { findMessageArray } from "./messages.ts";
import { looksLikeOpenCodeExport } from "./opencode.ts";
import { looksLikePi } from "./pi.ts";
import { looksLikeQwen } from "./qwen.ts";
import { looksLikeCursor } from "./cursor.ts";
import { looksLikeKiroSave } from "./kiro.ts";

const OPENAI_ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);
const ANTHROPIC_ONLY_BLOCKS = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document"]);

function messageArrayOf(value: unknown): unknown[] | null {
  return findMessageArray(value)?.messages ?? null;
}

function hasAnthropicOnlyBlock(messages: unknown[]): boolean {
  return messages.some(
    (m) =>
      isRecord(m) &&
      Array.isArray(m.content) &&
      m.content.some((b) => isRecord(b) && typeof b.type === "string" && (ANTHROPIC_ONLY_BLOCKS.has(b.type) || (b.type === "image" && isRecord(b.source)))),
  );
}

/** Every item has a role (OpenAI's set) and nothing Anthropic-only. */
function looksLikeOpenAiArray(value: unknown): boolean {
  const messages = messageArrayOf(value);
  if (!messages || looksLikeClineHistory(value)) return false;
  return messages.every((m) => isRecord(m) && typeof m.role === "string" && OPENAI_ROLES.has(m.role)) && !hasAnthropicOnlyBlock(messages);
}

/** Only user/assistant turns, and at least one block only Anthropic's API has. */
function looksLikeAnthropicArray(value: unknown): boolean {
  const messages = messageArrayOf(value);
  if (!messages || looksLikeClineHistory(value)) return false;
  return messages.every((m) => isRecord(m) && (m.role === "user" || m.role === "assistant")) && hasAnthropicOnlyBlock(messages);
}

export interface Recogniser<T> {
  format: FormatName;
  /** What the recogniser requires, for the refusal message and the docs. */
  requires: string;
  accepts(input: T): boolean;
}

/** Files that are one JSON value. */
export const JSON_VALUE_RECOGNISERS: readonly Recogniser<unknown>[] = [
  { format: "openai", requires: "a message array (or {messages:[…]}) whose items all have an OpenAI role", accepts: looksLikeOpenAiArray },
  { format: "anthropic", requires: "user/assistant turns with an Anthropic content block", accepts: looksLikeAnthropicArray },
  { format: "cline", requires: "an Anthropic array carrying Cline/Roo/Kilo fields (ts, condenseId, truncationId…)", accepts: looksLikeClineHistory },
  { format: "cline", requires: "a Cline/Roo/Kilo UI log, ui_messages.json ([{ts, type: say|ask}])", accepts: looksLikeClineUiLog },
  { format: "gemini", requires: "{sessionId, projectHash, messages:[{id, type}]}", accepts: looksLikeGeminiJson },
  { format: "opencode", requires: "{info:{id}, messages:[{info:{id, role}, parts:[…]}]}", accepts: looksLikeOpenCodeExport },
  { format: "kiro", requires: "a Kiro CLI /chat save {conversation_id, history:[…], transcript:[…]}", accepts: looksLikeKiroSave },
];

/** Files that are JSON Lines (given their first records). */
export const JSON_LINES_RECOGNISERS: readonly Recogniser<JsonLine[]>[] = [
  { format: "pi", requires: 'a first line {"type":"session", id}', accepts: (records) => records.length > 0 && looksLikePi(records[0]!.value) },
  { format: "codex", requires: "{type: session_meta|response_item|…, payload} or a legacy header", accepts: looksLikeCodex },
  {
    format: "claude",
    requires: "{type: user|assistant|system…, uuid or sessionId}",
    accepts: (records) => looksLikeClaude(records) && !looksLikeGeminiLines(records) && !looksLikeQwen(records),
  },
  { format: "cursor", requires: "{role, message: {content}} lines without type or uuid", accepts: looksLikeCursor },
  { format: "qwen", requires: "{uuid, parentUuid, sessionId, type: user|assistant|tool_result|system, message: {role, parts}}", accepts: looksLikeQwen },
  { format: "copilot", requires: '{type: "family.event", id, parentId, data}', accepts: looksLikeCopilot },
  { format: "gemini", requires: "a first line {sessionId, projectHash} then {id, type} messages", accepts: looksLikeGeminiLines },
];

export function acceptingJsonValue(value: unknown): FormatName[] {
  return JSON_VALUE_RECOGNISERS.filter((r) => r.accepts(value)).map((r) => r.format);
}

/** How many records of a JSON Lines file decide its format: the file's first ones, whatever follows. */
export const DETECTION_RECORDS = 50;

export function acceptingJsonLines(records: JsonLine[]): FormatName[] {
  const head = records.slice(0, DETECTION_RECORDS);
  return JSON_LINES_RECOGNISERS.filter((r) => r.accepts(head)).map((r) => r.format);
}

/** A short description of a value for an error: its type and first keys, never its text. */
export function describeShape(value: unknown): string {
  if (Array.isArray(value)) {
    const first = value[0];
    return `an array of ${value.length}${first === undefined ? "" : ` whose first item is ${describeShape(first)}`}`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value).slice(0, 8);
    const type = typeof value.type === "string" ? ` with type "${value.type.slice(0, 40)}"` : "";
    return `an object${type} with keys ${keys.map((k) => JSON.stringify(k.slice(0, 30))).join(", ")}${Object.keys(value).length > 8 ? ", …" : ""}`;
  }
  return value === null ? "null" : typeof value;
}

export function refusal(found: string, accepted: FormatName[], tried: readonly { format: FormatName; requires: string }[]): string {
  if (accepted.length > 1) return `ambiguous session: ${found} fits ${accepted.join(" and ")}; pass --format to choose`;
  const expected = tried.map((r) => `${r.format} (${r.requires})`).join("; ");
  return `unrecognised session format: found ${found}; tried ${expected}; pass --format to force one`;
}
