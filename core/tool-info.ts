/**
 * What a tool result says about itself, read across formats: the call it
 * answers, the tool's name, the error flag and the exit code. Structured
 * fields first (toolCallId, is_error, exitCode, metadata.exit_code); the
 * printed exit line is read last, only when no field says it.
 */
import type { Block, Message, ToolCallBlock } from "./model.ts";

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

/** Every phrase EXIT_LINE knows contains "xit": a cheap test that rules out most outputs. */
const EXIT_HINT = /xit/i;
const END_WINDOW = 2000;

export function exitCodeFromText(text: string): number | undefined {
  // Shell tools print the exit line near the start (Codex) or the end (Pi); look at both ends only.
  const window = text.length > 2 * END_WINDOW ? text.slice(0, END_WINDOW) + "\n" + text.slice(-END_WINDOW) : text;
  const match = (EXIT_HINT.test(window) ? EXIT_LINE.exec(window) : null) ?? (window.includes('"exit_code"') ? JSON_EXIT.exec(window) : null);
  return match ? Number(match[1]) : undefined;
}

/**
 * The printed exit code of a result, read once per output: panes, labels and facts all ask. Keyed by
 * the text block itself, which is never changed in place (compaction replaces a block, not its text).
 */
const printedExitCodes = new WeakMap<Block, number | null>();

function printedExitCode(message: Message): number | undefined {
  const first = message.blocks[0];
  if (first?.type !== "text") return undefined;
  let code = printedExitCodes.get(first);
  if (code === undefined) {
    code = exitCodeFromText(first.text) ?? null;
    printedExitCodes.set(first, code);
  }
  return code ?? undefined;
}

/** The call a tool result answers, from whichever field its format uses. */
export function resultCallId(message: Message): string | undefined {
  const meta = message.meta;
  return str(meta.toolCallId) ?? str(asRecord(meta.toolResult)?.tool_use_id) ?? str(meta.call_id) ?? str(meta.tool_call_id);
}

/** The name of each tool call by call id: all a result's outcome needs of its call. */
export type CallNames = ReadonlyMap<string, { readonly name: string }>;

export function toolOutcome(message: Message, calls?: CallNames): ToolOutcome {
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
  out.callId = resultCallId(message);
  out.toolName = str(meta.toolName) ?? str(meta.name) ?? (out.callId ? calls?.get(out.callId)?.name : undefined);
  const flag = meta.isError ?? anthropic?.is_error;
  if (typeof flag === "boolean") out.isError = flag;
  const details = asRecord(meta.details);
  if (typeof meta.exitCode === "number") out.exitCode = meta.exitCode;
  else if (typeof details?.exitCode === "number") out.exitCode = details.exitCode;
  else {
    const printed = printedExitCode(message);
    if (printed !== undefined) out.exitCode = printed;
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
