/**
 * Verifying a whole checkpoint, in both directions: the archive's payloads
 * against their own hashes (verifyArchive), and the active view against the
 * archive. Every omitted marker must have exactly one archive entry with its
 * recovery id, hash and byte count, sitting where the entry says it came from;
 * every archive entry must be referenced by a marker or be a removal the
 * strategy records without one (a whole message gone from the active view, or
 * a hand-off tool result cleared in place to a stub). Without the second
 * direction an emptied archive, a removed entry, swapped payloads or a payload
 * replaced along with its recomputed hash all passed.
 */
import { verifyArchive } from "./archive.ts";
import { recoveryId, type ArchiveEntry, type Checkpoint } from "./checkpoint.ts";
import type { Message, OmittedBlock } from "./model.ts";

export interface CheckpointProblem {
  /** The recovery id (or message id) the problem is about. */
  id: string;
  /** One line naming what is wrong. */
  reason: string;
}

interface PlacedMarker {
  marker: OmittedBlock;
  messageId: string;
  blockIndex: number;
}

export async function verifyCheckpoint(checkpoint: Pick<Checkpoint, "active" | "archive" | "strategy" | "stats">): Promise<CheckpointProblem[]> {
  const problems: CheckpointProblem[] = [];
  const add = (id: string, reason: string) => problems.push({ id, reason });
  const entries = checkpoint.archive.filter((entry, i) => wellFormedEntry(entry, i, add));
  for (const problem of await verifyArchive(entries)) {
    add(problem.id, problem.expected ? `${problem.reason} (expected ${problem.expected}, found ${problem.found})` : problem.reason);
  }
  const byId = new Map<string, ArchiveEntry>();
  for (const entry of entries) {
    if (entry.id !== recoveryId(entry.messageId, entry.path))
      add(entry.id, `recovery id does not match its message and path (expected ${recoveryId(entry.messageId, entry.path)})`);
    if (!byId.has(entry.id)) byId.set(entry.id, entry);
  }

  const markers = placedMarkers(checkpoint.active, add);
  const referenced = new Map<string, number>();
  for (const { marker, messageId, blockIndex } of markers) {
    const id = marker.recoveryId;
    referenced.set(id, (referenced.get(id) ?? 0) + 1);
    const entry = byId.get(id);
    if (!entry) {
      add(id, `marker in message ${messageId} has no archive entry`);
      continue;
    }
    if (marker.sha256 !== entry.sha256) add(id, `marker's sha256 differs from its archive entry's (marker ${marker.sha256}, entry ${entry.sha256})`);
    if (marker.bytes !== entry.bytes) add(id, `marker's byte count differs from its archive entry's (marker ${marker.bytes}, entry ${entry.bytes})`);
    const expectedPath = entry.path === "/blocks" ? blockIndex === 0 : entry.path === `/blocks/${blockIndex}`;
    if (entry.messageId !== messageId || !expectedPath) add(id, `marker sits at ${messageId}/blocks/${blockIndex}, but its entry came from ${entry.messageId}${entry.path}`);
  }
  for (const [id, count] of referenced) if (count > 1) add(id, `referenced by ${count} markers (expected exactly one)`);

  const activeById = new Map<string, Message>();
  for (const message of checkpoint.active) if (message && typeof message.id === "string") activeById.set(message.id, message);
  for (const entry of byId.values()) {
    if (referenced.has(entry.id)) continue;
    const unreferenced = unreferencedReason(entry, activeById, String(checkpoint.strategy?.name));
    if (unreferenced) add(entry.id, unreferenced);
  }

  const stated = checkpoint.stats?.payloads;
  if (typeof stated === "number" && stated !== checkpoint.archive.length) add("stats", `stats.payloads says ${stated} but the archive holds ${checkpoint.archive.length} entries`);
  return problems;
}

/** Why an entry no marker references is wrong, or undefined when the strategy records it that way. */
function unreferencedReason(entry: ArchiveEntry, activeById: Map<string, Message>, strategy: string): string | undefined {
  const inActive = activeById.get(entry.messageId);
  if (entry.path === "" && entry.kind === "message") {
    // A whole message moved out (recorded, pi-default, brief, handoff): it must be gone from the view, and be that message.
    if (inActive) return `whole-message entry, but message ${entry.messageId} is still in the active view`;
    const payloadId = (entry.payload as { id?: unknown } | null)?.id;
    if (payloadId !== entry.messageId) return `whole-message entry whose payload is message ${String(payloadId)}, not ${entry.messageId}`;
    return undefined;
  }
  // Hand-off clears old tool results in place: the message stays with a stub (or a capped text) instead of a marker.
  if (strategy === "handoff" && entry.path === "/blocks" && inActive && (inActive.role === "toolResult" || inActive.role === "bash")) {
    if (inActive.blocks.some((block) => block.type === "omitted")) return "cleared result whose message holds a marker for something else";
    return undefined;
  }
  return "referenced by no marker in the active view";
}

function wellFormedEntry(entry: unknown, index: number, add: (id: string, reason: string) => void): entry is ArchiveEntry {
  const e = entry as Partial<ArchiveEntry> | null;
  const name = e && typeof e.id === "string" ? e.id : `archive[${index}]`;
  if (!e || typeof e !== "object") return (add(name, "archive entry is not an object"), false);
  for (const field of ["id", "sha256", "messageId", "path", "kind"] as const) {
    if (typeof e[field] !== "string") return (add(name, `archive entry has no "${field}" string`), false);
  }
  if (typeof e.bytes !== "number") return (add(name, 'archive entry has no "bytes" number'), false);
  if (!("payload" in e) || e.payload === undefined) return (add(name, "archive entry has no payload"), false);
  return true;
}

function placedMarkers(active: readonly Message[], add: (id: string, reason: string) => void): PlacedMarker[] {
  const placed: PlacedMarker[] = [];
  active.forEach((message, i) => {
    if (!message || typeof message !== "object" || !Array.isArray(message.blocks)) return add(`active[${i}]`, "active message has no block list");
    message.blocks.forEach((block, blockIndex) => {
      if (!block || block.type !== "omitted") return;
      if (typeof block.recoveryId !== "string") return add(`${message.id}/blocks/${blockIndex}`, "marker has no recovery id");
      placed.push({ marker: block, messageId: message.id, blockIndex });
    });
  });
  return placed;
}
