/**
 * The transparent strategy (the paper's method). User and assistant prose
 * stays byte for byte; tool calls stay with full arguments; thinking,
 * tool-result content, bash output, images and unknown blocks move to the
 * archive behind `omitted` markers that keep the reader oriented (tool name,
 * call id, error state, exit code, size). Metadata is kept by reference.
 *
 * Recovery ids are `<messageId>#<path>`, so compacting a grown session, or an
 * earlier active view plus new messages, yields the same ids and hashes.
 */
import { truncate } from "../text.ts";
import type { ArchiveEntry } from "../checkpoint.ts";
import { computeStats, recoveryId } from "../checkpoint.ts";
import type { PayloadDigest } from "../hash.ts";
import { payloadDigests } from "./payload-digests.ts";
import type { Block, Message, OmittedBlock, PayloadKind, ToolCallBlock } from "../model.ts";
import { rememberJson } from "../serialized.ts";
import { anchorsIn, errorLineOf } from "../signals.ts";
import { toolCallsById, toolOutcome } from "../tool-info.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export interface TransparentOptions {
  /** Character budget for the active prose; the oldest whole blocks move out first. */
  maxProseChars?: number;
}

interface PendingPayload {
  messageIndex: number;
  blockIndex: number;
  messageId: string;
  path: string;
  kind: PayloadKind;
  payload: unknown;
  describe: (bytes: number) => string;
}

export async function transparent(branch: readonly Message[], options: TransparentOptions, context: StrategyContext): Promise<StrategyResult> {
  const previous = new Map<string, ArchiveEntry>();
  for (const entry of context.previous?.archive ?? []) previous.set(entry.id, entry);
  const calls = toolCallsById(branch);
  const pending: PendingPayload[] = [];

  // Pass 1: decide what moves out; markers are filled in once hashed.
  // Messages with nothing moved out are shared with the branch (cheap for big
  // sessions); `owned` marks the copies that markers may be written into.
  const owned = new Set<number>();
  const active: Message[] = branch.map((message, messageIndex) => {
    const blocks = planMessage(message, messageIndex, calls, pending);
    if (blocks === message.blocks) return message;
    owned.add(messageIndex);
    return { ...message, blocks };
  });

  // Pass 2 (cap): oldest whole prose blocks out until the budget holds. Blocks
  // capped in an earlier round stay out, so rounds agree with each other.
  let capped = 0;
  const cap = options.maxProseChars;
  const proseBlocks: { messageIndex: number; blockIndex: number; length: number }[] = [];
  let proseChars = 0;
  // Without a cap now or capped prose from before, nothing here can move: skip the walk.
  const previousCapped = [...previous.values()].some((entry) => entry.kind === "prose");
  if (cap !== undefined || previousCapped) {
    active.forEach((message, messageIndex) => {
      if (message.role !== "user" && message.role !== "assistant") return;
      message.blocks.forEach((block, blockIndex) => {
        if (block.type !== "text") return;
        const id = recoveryId(message.id, `/blocks/${blockIndex}`);
        if (previous.get(id)?.kind === "prose") {
          queueProse(active, owned, pending, messageIndex, blockIndex);
          capped++;
          return;
        }
        proseBlocks.push({ messageIndex, blockIndex, length: block.text.length });
        proseChars += block.text.length;
      });
    });
  }
  if (cap !== undefined) {
    for (const prose of proseBlocks) {
      if (proseChars <= cap) break;
      queueProse(active, owned, pending, prose.messageIndex, prose.blockIndex);
      proseChars -= prose.length;
      capped++;
    }
  }

  // Pass 3: hash every payload, then place the markers.
  const { archive, digests } = await hashPayloads(pending);
  const archived = new Set<string>();
  // activeChars − originalChars, added up marker by marker: each marker replaces
  // exactly one payload (a block, or a result's whole block list), so the
  // branch's length follows from the active view's without measuring the
  // branch (whose payloads are most of a big session) a second time.
  let activeCharsDelta = 0;
  pending.forEach((item, i) => {
    const entry = archive[i]!;
    archived.add(entry.id);
    const message = active[item.messageIndex]!;
    const marker: OmittedBlock = {
      type: "omitted",
      recoveryId: entry.id,
      sha256: entry.sha256,
      bytes: entry.bytes,
      kind: item.kind,
      label: item.describe(entry.bytes),
    };
    message.blocks[item.blockIndex] = marker;
    const markerLength = JSON.stringify(marker).length;
    // A result's list `[…]` becomes `[marker]`.
    activeCharsDelta += (item.path === "/blocks" ? markerLength + 2 : markerLength) - digests[i]!.jsonLength;
  });

  // Earlier rounds' payloads survive when a marker of this view still points at them (an
  // earlier active view recompacted keeps its markers); one no marker references is not
  // carried, so the checkpoint never holds an entry nothing in it refers to.
  const referenced = new Set<string>();
  for (const message of active) {
    for (const block of message.blocks) {
      if (block.type !== "omitted") continue;
      referenced.add(block.recoveryId);
      if (!archived.has(block.recoveryId) && !previous.has(block.recoveryId)) {
        context.warn?.(`marker ${block.recoveryId} has no archived payload (was the previous checkpoint given?)`);
      }
    }
  }
  let leftOut = 0;
  for (const [id, entry] of previous) {
    if (archived.has(id)) continue;
    if (referenced.has(id)) archive.push(entry);
    else leftOut++;
  }
  if (leftOut > 0) context.warn?.(`${leftOut} payload(s) of the previous checkpoint are not on this branch: left out`);

  // One serialization of the (small) active view gives both lengths: the
  // branch's JSON is the active view's minus what the markers replaced.
  const activeJson = JSON.stringify(active);
  // The active view is final here: the checkpoint writer may reuse its JSON.
  rememberJson(active, activeJson);
  const activeChars = activeJson.length;
  const lengths = { activeChars, originalChars: activeChars - activeCharsDelta };
  return { active, archive, stats: computeStats(branch, active, archive.length, capped, lengths) };
}

function planMessage(message: Message, messageIndex: number, calls: Map<string, ToolCallBlock>, pending: PendingPayload[]): Block[] {
  const { role, blocks } = message;
  if (role === "toolResult" || role === "bash") {
    // The whole output is one payload: it is read and recovered as a unit.
    if (blocks.length === 0 || blocks.every((b) => b.type === "omitted")) return blocks;
    const outcome = toolOutcome(message, calls);
    const kind: PayloadKind = role === "bash" ? "bashOutput" : "toolResult";
    const output = blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    pending.push({
      messageIndex,
      blockIndex: 0,
      messageId: message.id,
      path: "/blocks",
      kind,
      payload: blocks,
      describe: (bytes) => describeResult(outcome, role === "bash", bytes, output),
    });
    return [blocks[0]!]; // placeholder, replaced by the marker after hashing
  }
  let copy: Block[] | undefined;
  blocks.forEach((block, blockIndex) => {
    const kind = movedKind(block);
    if (!kind) return;
    copy ??= [...blocks];
    pending.push({
      messageIndex,
      blockIndex,
      messageId: message.id,
      path: `/blocks/${blockIndex}`,
      kind,
      payload: block,
      describe: (bytes) => describeBlock(block, bytes),
    });
  });
  return copy ?? blocks;
}

function movedKind(block: Block): PayloadKind | undefined {
  switch (block.type) {
    case "thinking":
      return "thinking";
    case "image":
      return "image";
    case "raw":
      return "raw";
    default:
      return undefined; // text, toolCall and earlier markers stay
  }
}

function queueProse(active: Message[], owned: Set<number>, pending: PendingPayload[], messageIndex: number, blockIndex: number): void {
  if (!owned.has(messageIndex)) {
    active[messageIndex] = { ...active[messageIndex]!, blocks: [...active[messageIndex]!.blocks] };
    owned.add(messageIndex);
  }
  const message = active[messageIndex]!;
  const block = message.blocks[blockIndex]!;
  pending.push({
    messageIndex,
    blockIndex,
    messageId: message.id,
    path: `/blocks/${blockIndex}`,
    kind: "prose",
    payload: block,
    describe: (bytes) => `${message.role} prose moved out by the prose cap, ${formatBytes(bytes)}`,
  });
}

async function hashPayloads(pending: PendingPayload[]): Promise<{ archive: ArchiveEntry[]; digests: PayloadDigest[] }> {
  const digests = await payloadDigests(pending.map((item) => item.payload));
  const archive = pending.map((item, i) => ({
    id: recoveryId(item.messageId, item.path),
    sha256: digests[i]!.sha256,
    bytes: digests[i]!.bytes,
    kind: item.kind,
    messageId: item.messageId,
    path: item.path,
    payload: item.payload,
  }));
  return { archive, digests };
}

/**
 * The label keeps what a reader needs to stay oriented without the payload:
 * which tool, which call, error state and exit code, size; for a failure the
 * line that names it; and any anchors (error codes, SHAs, URLs, issue
 * numbers) the output mentions.
 */
function describeResult(outcome: ReturnType<typeof toolOutcome>, isBash: boolean, bytes: number, output: string): string {
  const name = isBash ? "bash" : (outcome.toolName ?? "tool");
  const head = isBash ? `bash output${outcome.command ? ` of \`${truncate(outcome.command, 60)}\`` : ""}` : `${name} result${outcome.callId ? ` (${outcome.callId})` : ""}`;
  const parts: string[] = [];
  if (outcome.isError !== undefined) parts.push(outcome.isError ? "error" : "ok");
  if (outcome.exitCode !== undefined) parts.push(`exit ${outcome.exitCode}`);
  parts.push(formatBytes(bytes));
  let label = `${head}: ${parts.join(", ")}`;
  const failed = outcome.isError === true || (outcome.exitCode !== undefined && outcome.exitCode !== 0);
  const errorLine = failed ? errorLineOf(output) : undefined;
  if (errorLine) label += `; says "${truncate(errorLine, LABEL_QUOTE)}"`;
  const anchors = anchorsIn(output.length > ANCHOR_SCAN ? output.slice(0, ANCHOR_SCAN / 2) + "\n" + output.slice(-ANCHOR_SCAN / 2) : output, LABEL_ANCHORS);
  if (anchors.length > 0) label += `; mentions ${anchors.join(", ")}`;
  return label;
}

const LABEL_QUOTE = 160;
const LABEL_ANCHORS = 4;
/** Anchors are looked for at both ends of long outputs only: labels stay cheap. */
const ANCHOR_SCAN = 20_000;

function describeBlock(block: Block, bytes: number): string {
  switch (block.type) {
    case "thinking":
      return `thinking, ${formatBytes(bytes)}`;
    case "image":
      return `${block.mimeType} image, ${formatBytes(bytes)}`;
    case "raw": {
      const value = block.value as { type?: unknown } | null;
      const type = value && typeof value === "object" && typeof value.type === "string" ? ` "${value.type}"` : "";
      return `unknown block${type}, ${formatBytes(bytes)}`;
    }
    default:
      return `${block.type}, ${formatBytes(bytes)}`;
  }
}

export function formatBytes(bytes: number): string {
  return `${bytes} bytes`;
}
