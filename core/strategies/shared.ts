/** Pieces the summarising strategies (brief, handoff) share. */
import { computeStats, recoveryId, type ArchiveEntry, type CheckpointStats } from "../checkpoint.ts";
import { payloadDigests } from "./payload-digests.ts";
import type { Block, Message } from "../model.ts";
import { isRealUserMessage } from "../signals.ts";

export { isRealUserMessage };

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** The first `head` and last `tail` words, with the cut marked. */
export function headAndTail(text: string, head: number, tail: number): string {
  const all = words(text);
  if (all.length <= head + tail) return all.join(" ");
  return `${all.slice(0, head).join(" ")} […${all.length - head - tail} words…] ${all.slice(-tail).join(" ")}`;
}

export function firstWords(text: string, count: number): string {
  const all = words(text);
  return all.length <= count ? all.join(" ") : `${all.slice(0, count).join(" ")} […${all.length - count} more words]`;
}

export interface Removal {
  message: Message;
  /** "" for the whole message, "/blocks" for a result's content. */
  path: string;
  payload: unknown;
  kind: ArchiveEntry["kind"];
}

/** Archive entries for what a strategy removed: every one recoverable by hash. */
export async function archiveRemovals(removals: readonly Removal[]): Promise<ArchiveEntry[]> {
  const digests = await payloadDigests(removals.map((r) => r.payload));
  return removals.map((removal, i) => ({
    id: recoveryId(removal.message.id, removal.path),
    sha256: digests[i]!.sha256,
    bytes: digests[i]!.bytes,
    kind: removal.kind,
    messageId: removal.message.id,
    path: removal.path,
    payload: removal.payload,
  }));
}

export function statsOf(branch: readonly Message[], active: readonly Message[], archive: readonly ArchiveEntry[]): CheckpointStats {
  return computeStats(branch, active, archive.length, 0);
}

export function textMessage(id: string, role: Message["role"], text: string, meta: Record<string, unknown> = {}): Message {
  return { id, role, meta, blocks: [{ type: "text", text } satisfies Block] };
}

/** Index of the first message of each of the newest `turns` turns (a turn starts at a real user message). */
export function startOfLastTurns(branch: readonly Message[], turns: number): number {
  let found = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (isRealUserMessage(branch[i]!) && ++found === turns) return i;
  }
  return 0;
}
