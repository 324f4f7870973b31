/**
 * The checkpoint: what a strategy produces and what the CLI exports
 * (`session-inspector/checkpoint@1`, DESIGN.md). Also the stats every
 * strategy reports, computed the same way for all of them.
 */
import { MeasuredOver, messagesJsonLength, type JsonLengths } from "./json-length.ts";
import type { FormatName, Message, PayloadKind } from "./model.ts";

export const CHECKPOINT_SCHEMA = "session-inspector/checkpoint@1";

export interface ArchiveEntry {
  /** Deterministic: `<messageId>#<path>`, so it survives recompaction. */
  id: string;
  sha256: string;
  bytes: number;
  kind: PayloadKind;
  messageId: string;
  /** JSON pointer into the source message (neutral model), e.g. `/blocks/2`. */
  path: string;
  /** The removed value exactly as read. */
  payload: unknown;
}

export interface CheckpointStats {
  proseSegments: number;
  proseVerbatim: number;
  payloads: number;
  originalChars: number;
  activeChars: number;
  metadataFields: number;
  /** Whole prose blocks moved out by maxProseChars. */
  capped: number;
  /**
   * Model-view tokens (core/model-view.ts, o200k) of the active view and of the
   * branch; present when the caller asked for them (CompactRequest.countTokens),
   * since counting a 100 MB branch is worth doing only when someone reads it.
   */
  activeTokens?: number;
  originalTokens?: number;
}

export interface CheckpointSource {
  name: string;
  bytes: number;
  sha256: string;
  format: FormatName;
  formatVersion?: string;
  leafId: string | null;
  branchMessages: number;
}

export interface Checkpoint {
  schema: typeof CHECKPOINT_SCHEMA;
  source: CheckpointSource;
  strategy: { name: string; options: Record<string, unknown>; [extra: string]: unknown };
  active: Message[];
  archive: ArchiveEntry[];
  stats: CheckpointStats;
}

export function recoveryId(messageId: string, path: string): string {
  return `${messageId}#${path}`;
}

/** The two JSON lengths, when a strategy can work them out more cheaply than measuring both views. */
export interface ViewLengths {
  originalChars: number;
  activeChars: number;
}

/** Stats from a branch and the active view a strategy made of it. */
export function computeStats(branch: readonly Message[], active: readonly Message[], archiveSize: number, capped: number, lengths?: ViewLengths): CheckpointStats {
  const activeById = new Map<string, Message>();
  for (const message of active) activeById.set(message.id, message);
  const tally = new StatsTally();
  for (const message of branch) tally.add(message, activeById.get(message.id));
  return tally.stats(archiveSize, capped, lengths ?? measureLengths(branch, active));
}

export interface TallyCounts {
  proseSegments: number;
  proseVerbatim: number;
  metadataFields: number;
}

/**
 * The stats counted one branch message at a time, with the active message of
 * the same id: computeStats over a whole view, and the CLI's streamed
 * compaction message by message (core/compact-stream.ts), count alike.
 */
export class StatsTally {
  private proseSegments = 0;
  private proseVerbatim = 0;
  private metadataFields = 0;

  /** A tally that goes on from counts taken before (a growing view's unchanged start: core/strategies/transparent-growth.ts). */
  static resume(counts: TallyCounts): StatsTally {
    const tally = new StatsTally();
    tally.proseSegments = counts.proseSegments;
    tally.proseVerbatim = counts.proseVerbatim;
    tally.metadataFields = counts.metadataFields;
    return tally;
  }

  /** The counts so far. */
  counts(): TallyCounts {
    return { proseSegments: this.proseSegments, proseVerbatim: this.proseVerbatim, metadataFields: this.metadataFields };
  }

  add(message: Message, kept: Message | undefined): void {
    if (kept === message) {
      // Kept as is (most messages of a transparent view): everything is preserved.
      for (const _key in message.meta) this.metadataFields++;
      if (message.role === "user" || message.role === "assistant") {
        for (const block of message.blocks) {
          if (block.type !== "text") continue;
          this.proseSegments++;
          this.proseVerbatim++;
        }
      }
      return;
    }
    if (kept) this.metadataFields += countPreservedMeta(message.meta, kept.meta);
    if (message.role !== "user" && message.role !== "assistant") return;
    const keptTexts = kept ? kept.blocks.filter((b) => b.type === "text").map((b) => b.text) : [];
    let cursor = 0;
    for (const block of message.blocks) {
      if (block.type !== "text") continue;
      this.proseSegments++;
      // Segment by segment, in order: a text kept elsewhere or reordered does not count.
      const at = keptTexts.indexOf(block.text, cursor);
      if (at !== -1) {
        this.proseVerbatim++;
        cursor = at + 1;
      }
    }
  }

  stats(archiveSize: number, capped: number, lengths: ViewLengths): CheckpointStats {
    return {
      proseSegments: this.proseSegments,
      proseVerbatim: this.proseVerbatim,
      payloads: archiveSize,
      originalChars: lengths.originalChars,
      activeChars: lengths.activeChars,
      metadataFields: this.metadataFields,
      capped,
    };
  }
}

/**
 * A branch's JSON length and the lengths of its parts, by branch array. Every
 * strategy of a report or a checkride measures the same branch (the session
 * keeps one array per leaf): measuring it once saved 1.7 s of a 100 MB
 * session's report. Exact because a session's messages never change once read.
 */
const branchLengths = new WeakMap<readonly Message[], { originalChars: number; known: JsonLengths }>();

function measureLengths(branch: readonly Message[], active: readonly Message[]): ViewLengths {
  let measured = branchLengths.get(branch);
  if (!measured) {
    const known = new Map<object, number>();
    measured = { originalChars: messagesJsonLength(branch, known), known };
    branchLengths.set(branch, measured);
  }
  // Messages an active view shares with its branch are measured once.
  return { originalChars: measured.originalChars, activeChars: messagesJsonLength(active, new MeasuredOver(measured.known)) };
}

function countPreservedMeta(source: Record<string, unknown>, kept: Record<string, unknown>): number {
  let count = 0;
  for (const key in source) if (key in kept && (kept[key] === source[key] || JSON.stringify(kept[key]) === JSON.stringify(source[key]))) count++;
  return count;
}
