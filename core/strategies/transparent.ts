/**
 * The transparent strategy (the paper's method). User and assistant prose
 * stays byte for byte; tool calls stay with full arguments; thinking,
 * tool-result content, bash output, images and unknown blocks move to the
 * archive behind `omitted` markers that keep the reader oriented (tool name,
 * call id, error state, exit code, size). Metadata is kept by reference.
 *
 * Recovery ids are `<messageId>#<path>`, so compacting a grown session, or an
 * earlier active view plus new messages, yields the same ids and hashes.
 * What happens to one message is in transparent-payloads.ts, an uncapped view
 * of a branch in transparent-growth.ts; this file adds what needs the whole
 * branch: the prose cap and an earlier checkpoint.
 */
import type { ArchiveEntry } from "../checkpoint.ts";
import { computeStats, recoveryId } from "../checkpoint.ts";
import type { Message } from "../model.ts";
import { rememberJson } from "../serialized.ts";
import { toolCallsById } from "../tool-info.ts";
import { TransparentGrowth } from "./transparent-growth.ts";
import { formatBytes, hashPayloads, placeMarkers, planMessage, type PendingPayload } from "./transparent-payloads.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export interface TransparentOptions {
  /** Character budget for the active prose; the oldest whole blocks move out first. */
  maxProseChars?: number;
}

export async function transparent(branch: readonly Message[], options: TransparentOptions, context: StrategyContext): Promise<StrategyResult> {
  const previous = new Map<string, ArchiveEntry>();
  for (const entry of context.previous?.archive ?? []) previous.set(entry.id, entry);
  // Without a cap or an earlier checkpoint each message's view is its own: the growing view makes it
  // (a followed session's own, which reads only what is new since its last view).
  if (options.maxProseChars === undefined && previous.size === 0) return (context.growth ?? new TransparentGrowth()).view(branch, context);
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
  for (const entry of archive) archived.add(entry.id);
  const activeCharsDelta = placeMarkers(pending, archive, digests, active);

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
