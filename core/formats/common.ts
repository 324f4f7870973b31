/** Small helpers shared by the format readers. */
import type { Block, Entry, FormatName, LoadWarning, Message, RecordedCompaction, RecordedContext, UsageSeries } from "../model.ts";
import type { UsageFold } from "../usage/fold.ts";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A shallow copy of `record` without the named keys (used to build verbatim `meta`). */
export function without(record: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in record) if (!keys.includes(key)) out[key] = record[key];
  return out;
}

/** Fields of a source block beyond the neutral ones, or undefined when there are none. */
export function extraFields(block: Record<string, unknown>, known: string[]): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const key in block) {
    if (key === "type" || known.includes(key)) continue;
    (extra ??= {})[key] = block[key];
  }
  return extra;
}

export function withExtra<B extends Block>(block: B, extra: Record<string, unknown> | undefined): B {
  if (extra) (block as B & { extra?: Record<string, unknown> }).extra = extra;
  return block;
}

/**
 * `{type: "text", text}` and `{type: "thinking", thinking}`: Pi and the
 * Anthropic shape write these two blocks alike. Null for anything else (a
 * malformed one included: the caller keeps it raw).
 */
/**
 * A tool call's arguments written as a JSON string (Codex's function calls, OpenAI chat, Copilot's
 * tool requests): parsed, so every reader of the call sees its fields, with the exact string kept
 * in `argumentsJson` (what the model produced: token counts and exports use it). Text that is not
 * JSON stays the arguments as it is.
 */
export function parsedArguments(text: unknown): { value: unknown; extra?: Record<string, unknown> } {
  if (typeof text !== "string") return { value: text };
  try {
    return { value: JSON.parse(text), extra: { argumentsJson: text } };
  } catch {
    return { value: text };
  }
}

export function textOrThinkingBlock(block: Record<string, unknown>): Block | null {
  if (block.type === "text" && typeof block.text === "string") return withExtra({ type: "text", text: block.text }, extraFields(block, ["text"]));
  if (block.type === "thinking" && typeof block.thinking === "string") return withExtra({ type: "thinking", text: block.thinking }, extraFields(block, ["thinking"]));
  return null;
}

export function textBlocks(text: string): Block[] {
  return [{ type: "text", text }];
}

/** What every reader hands to session assembly. */
export interface ReaderOutput {
  format: FormatName;
  formatVersion?: string;
  header?: unknown;
  entries: Entry[];
  warnings: LoadWarning[];
  toolCallIds: Set<string>;
  offTreeRecords: Record<string, number>;
  /** The entry the agent would resume from, before tree repair. */
  defaultLeafId: string | null;
  /** Whether a childless entry is worth offering as a leaf (default: any). */
  isLeafCandidate?(entry: Entry): boolean;
  /**
   * The entries whose messages make the branch of a root → leaf path, in the
   * order their messages come (default: the path itself). Claude Code adds
   * the parallel tool results beside the path.
   */
  branchEntries?(path: Entry[], context: BranchContext): Entry[];
  /** Branch messages for a root → leaf path (default: the entries' messages in order). */
  branchMessages?(path: Entry[], context: BranchContext): Message[];
  /**
   * A followed file's branch from the one served before it grew (`seed`, made when the file held
   * `seed.entries` entries) and the path's entries added below its leaf; null where it must be made whole
   * (the growth touches what came before). Only with `branchMessages`: without it the branch is the path's.
   */
  resumeBranch?(seed: { messages: readonly Message[]; entries: number }, added: readonly Entry[], entries: readonly Entry[]): Message[] | null;
  /**
   * The agent's own context for a root → leaf path after its recorded compactions. `branch` gives
   * the path's branch messages as the session already made them (cached, or gone on from a followed
   * file's last look), for a reader whose compactions are read over its branch rather than its path.
   */
  recorded(path: Entry[], context: BranchContext, branch?: () => Message[]): RecordedContext;
  /** Every compaction recorded on a root → leaf path (default: none); `branch` as for `recorded`. */
  compactions?(path: Entry[], context: BranchContext, branch?: () => Message[]): RecordedCompaction[];
  /** The file's usage records on a root → leaf path (default: none). */
  usage?(path: Entry[], context: BranchContext): UsageSeries;
  /** The same usage read as a fold over the path's entries, where the reader has one: a followed file's next look goes on from the last one's. */
  usageFold?(): UsageFold;
}

export interface BranchContext {
  children: Map<string, string[]>;
  byId: Map<string, Entry>;
}

export function messagesOf(path: Entry[]): Message[] {
  const out: Message[] = [];
  for (const entry of path) for (const message of entry.messages) out.push(message);
  return out;
}

export function countOffTree(counts: Record<string, number>, type: string): void {
  counts[type] = (counts[type] ?? 0) + 1;
}
