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

/** A marker of the active view, where it sits, and what it says of its entry. */
interface PlacedMarker {
  marker: Pick<OmittedBlock, "recoveryId" | "sha256" | "bytes">;
  messageId: string;
  blockIndex: number;
}

/** What the checks need of an active message beyond its markers. */
interface ActiveMessage {
  role: Message["role"];
  holdsMarker: boolean;
}

type VerifiedCheckpoint = Pick<Checkpoint, "active" | "archive" | "strategy" | "stats">;

export async function verifyCheckpoint(checkpoint: VerifiedCheckpoint): Promise<CheckpointProblem[]> {
  const verifier = new CheckpointVerifier();
  verifier.addActive(checkpoint.active);
  for (let i = 0; i < checkpoint.archive.length; i += VERIFY_BATCH) await verifier.addEntries(checkpoint.archive.slice(i, i + VERIFY_BATCH));
  return verifier.finish(checkpoint);
}

/** Entries hashed per call when a whole archive is at hand. */
const VERIFY_BATCH = 1024;

/** What the second direction needs of an archive entry once its payload is checked: everything but the payload. */
interface CheckedEntry {
  id: string;
  sha256: string;
  bytes: number;
  messageId: string;
  path: string;
  kind: string;
  /** The payload's own id, for a whole-message entry only. */
  payloadId?: unknown;
}

/**
 * The checks of verifyCheckpoint, fed the active view and the archive a
 * batch at a time (each in its own order, in either order), and the strategy
 * and stats at the end. Each entry's payload is hashed when it comes and then
 * let go, and of each active message only its markers, id and role are kept:
 * `verify` of a checkpoint file read in pieces holds neither the archive's
 * payloads nor the active view's text. The problems come out in the order
 * the checks have always named them.
 */
export class CheckpointVerifier {
  private entryCount = 0;
  private readonly seen = new Set<string>();
  private readonly byId = new Map<string, CheckedEntry>();
  private readonly malformed: CheckpointProblem[] = [];
  private readonly mismatched: CheckpointProblem[] = [];
  private readonly misnamed: CheckpointProblem[] = [];
  private activeCount = 0;
  private readonly malformedActive: CheckpointProblem[] = [];
  private readonly markers: PlacedMarker[] = [];
  private readonly activeById = new Map<string, ActiveMessage>();

  /** The number of archive entries added so far, well formed or not. */
  get entries(): number {
    return this.entryCount;
  }

  async addEntries(batch: readonly unknown[]): Promise<void> {
    const entries = batch.filter((entry, i) => wellFormedEntry(entry, this.entryCount + i, (id, reason) => this.malformed.push({ id, reason })));
    this.entryCount += batch.length;
    for (const problem of await verifyArchive(entries, this.seen)) {
      this.mismatched.push({ id: problem.id, reason: problem.expected ? `${problem.reason} (expected ${problem.expected}, found ${problem.found})` : problem.reason });
    }
    for (const entry of entries) {
      const expectedId = recoveryId(entry.messageId, entry.path);
      if (entry.id !== expectedId) this.misnamed.push({ id: entry.id, reason: `recovery id does not match its message and path (expected ${expectedId})` });
      if (!this.byId.has(entry.id)) this.byId.set(entry.id, checkedEntry(entry));
    }
  }

  /** The next messages of the active view, in order. */
  addActive(messages: readonly unknown[]): void {
    placeMarkers(messages, this.activeCount, this.markers, (id, reason) => this.malformedActive.push({ id, reason }));
    this.activeCount += messages.length;
    for (const message of messages as readonly Message[]) {
      if (!message || typeof message.id !== "string") continue;
      this.activeById.set(message.id, { role: message.role, holdsMarker: Array.isArray(message.blocks) && message.blocks.some((block) => block?.type === "omitted") });
    }
  }

  /** The active view against the archive seen, and the stated count; every problem found, in order. */
  finish(checkpoint: Pick<Checkpoint, "strategy" | "stats">): CheckpointProblem[] {
    const problems = [...this.malformed, ...this.mismatched, ...this.misnamed, ...this.malformedActive];
    const add = (id: string, reason: string) => problems.push({ id, reason });
    const byId = this.byId;
    const markers = this.markers;
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

    for (const entry of byId.values()) {
      if (referenced.has(entry.id)) continue;
      const unreferenced = unreferencedReason(entry, this.activeById, String(checkpoint.strategy?.name));
      if (unreferenced) add(entry.id, unreferenced);
    }

    const stated = checkpoint.stats?.payloads;
    if (typeof stated === "number" && stated !== this.entryCount) add("stats", `stats.payloads says ${stated} but the archive holds ${this.entryCount} entries`);
    return problems;
  }
}

function checkedEntry(entry: ArchiveEntry): CheckedEntry {
  const { id, sha256, bytes, messageId, path, kind } = entry;
  if (path === "" && kind === "message") return { id, sha256, bytes, messageId, path, kind, payloadId: (entry.payload as { id?: unknown } | null)?.id };
  return { id, sha256, bytes, messageId, path, kind };
}

/** Why an entry no marker references is wrong, or undefined when the strategy records it that way. */
function unreferencedReason(entry: CheckedEntry, activeById: Map<string, ActiveMessage>, strategy: string): string | undefined {
  const inActive = activeById.get(entry.messageId);
  if (entry.path === "" && entry.kind === "message") {
    // A whole message moved out (recorded, pi-default, brief, handoff): it must be gone from the view, and be that message.
    if (inActive) return `whole-message entry, but message ${entry.messageId} is still in the active view`;
    if (entry.payloadId !== entry.messageId) return `whole-message entry whose payload is message ${String(entry.payloadId)}, not ${entry.messageId}`;
    return undefined;
  }
  // Hand-off clears old tool results in place: the message stays with a stub (or a capped text) instead of a marker.
  if (strategy === "handoff" && entry.path === "/blocks" && inActive && (inActive.role === "toolResult" || inActive.role === "bash")) {
    if (inActive.holdsMarker) return "cleared result whose message holds a marker for something else";
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

/** The markers of `active` (whose first message is the view's `firstIndex`th), added to `placed`: only what the checks compare. */
function placeMarkers(active: readonly unknown[], firstIndex: number, placed: PlacedMarker[], add: (id: string, reason: string) => void): void {
  (active as readonly Message[]).forEach((message, i) => {
    if (!message || typeof message !== "object" || !Array.isArray(message.blocks)) return add(`active[${firstIndex + i}]`, "active message has no block list");
    message.blocks.forEach((block, blockIndex) => {
      if (!block || block.type !== "omitted") return;
      if (typeof block.recoveryId !== "string") return add(`${message.id}/blocks/${blockIndex}`, "marker has no recovery id");
      placed.push({ marker: { recoveryId: block.recoveryId, sha256: block.sha256, bytes: block.bytes }, messageId: message.id, blockIndex });
    });
  });
}
