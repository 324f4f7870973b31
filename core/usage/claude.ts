/**
 * Claude Code's usage: `message.usage` on assistant lines (input_tokens,
 * cache_read_input_tokens, cache_creation_input_tokens, output_tokens).
 * One API message is streamed as several lines sharing message.id, each
 * repeating the usage: one turn per message.id, with the figures of its last
 * line (the most complete). Messages preserved across a resume, and
 * synthetic ones, carry all-zero usage: left out, and said. The compact
 * boundaries' preTokens/postTokens are compaction figures, not turns (they
 * travel with RecordedCompaction).
 */
import type { Entry, UsageSeries, UsageTurn } from "../model.ts";
import { count, isAllZero, plural } from "./common.ts";
import { foldUsage, type UsageFold } from "./fold.ts";

export function claudeUsage(path: readonly Entry[]): UsageSeries {
  return foldUsage(new ClaudeUsageFold(), path);
}

export class ClaudeUsageFold implements UsageFold {
  private turns: UsageTurn[] = [];
  /** Each API message id's turn, by its index in `turns`. */
  private turnByApiId = new LayeredMap<string, number>();
  private repeated = 0;
  private zeroed = 0;
  /** Copied: what goes on from it reads its state, so it takes no more entries. */
  private copied = false;

  add(entry: Entry): void {
    if (this.copied) throw new Error("a usage fold that was copied takes no more entries (go on from its copy)");
    for (const message of entry.messages) {
      const usage = message.meta.usage;
      if (message.role !== "assistant" || typeof usage !== "object" || usage === null) continue;
      const u = usage as Record<string, unknown>;
      const figures = {
        input: count(u.input_tokens),
        output: count(u.output_tokens),
        cacheRead: count(u.cache_read_input_tokens),
        cacheWrite: count(u.cache_creation_input_tokens),
      };
      const apiId = typeof message.meta.id === "string" ? message.meta.id : null;
      const earlier = apiId === null ? undefined : this.turnByApiId.get(apiId);
      if (earlier !== undefined) {
        // A streamed continuation of the same API call: the same turn, not a new one. A new object:
        // the turn may be in a series handed out already (an earlier look's).
        this.repeated++;
        if (!isAllZero(figures)) this.turns[earlier] = { ...this.turns[earlier]!, ...figures, line: entry.line, contextTokens: contextOf(figures) };
        continue;
      }
      if (isAllZero(figures)) {
        this.zeroed++;
        continue;
      }
      if (apiId !== null) this.turnByApiId.set(apiId, this.turns.length);
      this.turns.push({ line: entry.line, messageId: message.id, ...figures, contextTokens: contextOf(figures) });
    }
  }

  series(): UsageSeries {
    const notes: string[] = [];
    if (this.repeated > 0)
      notes.push(`${plural(this.repeated, "streamed line repeats", "streamed lines repeat")} the usage of a message already counted (same message.id): counted once`);
    if (this.zeroed > 0)
      notes.push(
        `${plural(this.zeroed, "assistant message records", "assistant messages record")} all-zero usage (Claude Code zeroes usage on messages preserved across a resume; synthetic and aborted messages have none): left out`,
      );
    return { turns: this.turns.slice(), contextWindow: null, notes };
  }

  copy(): ClaudeUsageFold {
    this.copied = true;
    const next = new ClaudeUsageFold();
    next.turns = this.turns.slice();
    next.turnByApiId = this.turnByApiId.layer();
    next.repeated = this.repeated;
    next.zeroed = this.zeroed;
    return next;
  }
}

function contextOf(figures: { input: number; cacheRead: number; cacheWrite: number }): number {
  return figures.input + figures.cacheRead + figures.cacheWrite;
}

/**
 * A map that goes on from another without copying it: lookups fall through to the layer below,
 * writes stay in this one. A followed file's every look copies the fold, and copying the id of every
 * API message on a 100 MB branch each time costs more than the growth. Flattened past a few layers,
 * so a lookup never walks a long chain. The layers below are never written once layered on.
 */
class LayeredMap<K, V> {
  private readonly own = new Map<K, V>();
  constructor(
    private readonly below?: LayeredMap<K, V>,
    private readonly depth = 0,
  ) {}

  get(key: K): V | undefined {
    return this.own.get(key) ?? this.below?.get(key);
  }

  set(key: K, value: V): void {
    this.own.set(key, value);
  }

  layer(): LayeredMap<K, V> {
    if (this.depth < MAX_LAYERS) return new LayeredMap(this, this.depth + 1);
    const flat = new LayeredMap<K, V>();
    this.forEachBottomUp((key, value) => flat.own.set(key, value));
    return new LayeredMap(flat, 1);
  }

  private forEachBottomUp(visit: (key: K, value: V) => void): void {
    this.below?.forEachBottomUp(visit);
    for (const [key, value] of this.own) visit(key, value);
  }
}

const MAX_LAYERS = 8;
