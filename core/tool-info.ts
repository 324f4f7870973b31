/**
 * What a tool result says about itself, read across formats: the call it
 * answers, the tool's name, the error flag and the exit code. Structured
 * fields first (toolCallId, is_error, exitCode, metadata.exit_code); the
 * printed exit line is read last, only when no field says it.
 */
import type { Message, ToolCallBlock } from "./model.ts";

export interface ToolOutcome {
  callId?: string;
  toolName?: string;
  isError?: boolean;
  exitCode?: number;
  /** For Pi's `bash` role: the command the user ran. */
  command?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const EXIT_LINE = /(?:Process exited with code|Command exited with code|Exit code:?|exit code:?)\s*(-?\d+)/i;
const JSON_EXIT = /"exit_code"\s*:\s*(-?\d+)/;

export function exitCodeFromText(text: string): number | undefined {
  // Shell tools print the exit line near the start (Codex) or the end (Pi); look at both ends only.
  const window = text.length > 4000 ? text.slice(0, 2000) + "\n" + text.slice(-2000) : text;
  const match = EXIT_LINE.exec(window) ?? JSON_EXIT.exec(window);
  return match ? Number(match[1]) : undefined;
}

export function toolOutcome(message: Message, calls?: Map<string, ToolCallBlock>): ToolOutcome {
  const meta = message.meta;
  const out: ToolOutcome = {};
  if (message.role === "bash") {
    out.toolName = "bash";
    out.command = str(meta.command);
    if (typeof meta.exitCode === "number") out.exitCode = meta.exitCode;
    if (meta.cancelled === true) out.isError = true;
    else if (out.exitCode !== undefined) out.isError = out.exitCode !== 0;
    return out;
  }
  const anthropic = asRecord(meta.toolResult);
  out.callId = str(meta.toolCallId) ?? str(anthropic?.tool_use_id) ?? str(meta.call_id) ?? str(meta.tool_call_id);
  out.toolName = str(meta.toolName) ?? str(meta.name) ?? (out.callId ? calls?.get(out.callId)?.name : undefined);
  const flag = meta.isError ?? anthropic?.is_error;
  if (typeof flag === "boolean") out.isError = flag;
  const details = asRecord(meta.details);
  if (typeof meta.exitCode === "number") out.exitCode = meta.exitCode;
  else if (typeof details?.exitCode === "number") out.exitCode = details.exitCode;
  else {
    const first = message.blocks[0];
    if (first?.type === "text") out.exitCode = exitCodeFromText(first.text);
  }
  if (out.isError === undefined && out.exitCode !== undefined) out.isError = out.exitCode !== 0;
  return out;
}

/** Every tool call on a branch, by call id. */
export function toolCallsById(messages: readonly Message[]): Map<string, ToolCallBlock> {
  const calls = new Map<string, ToolCallBlock>();
  for (const message of messages) for (const block of message.blocks) if (block.type === "toolCall") calls.set(block.id, block);
  return calls;
}
