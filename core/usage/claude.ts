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
import { count, emptySeries, isAllZero, plural } from "./common.ts";

export function claudeUsage(path: readonly Entry[]): UsageSeries {
  const series = emptySeries();
  const turnByApiId = new Map<string, UsageTurn>();
  let repeated = 0;
  let zeroed = 0;
  for (const entry of path) {
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
      const earlier = apiId === null ? undefined : turnByApiId.get(apiId);
      if (earlier) {
        // A streamed continuation of the same API call: the same turn, not a new one.
        repeated++;
        if (!isAllZero(figures)) Object.assign(earlier, figures, { line: entry.line, contextTokens: contextOf(figures) });
        continue;
      }
      if (isAllZero(figures)) {
        zeroed++;
        continue;
      }
      const turn: UsageTurn = { line: entry.line, messageId: message.id, ...figures, contextTokens: contextOf(figures) };
      if (apiId !== null) turnByApiId.set(apiId, turn);
      series.turns.push(turn);
    }
  }
  if (repeated > 0)
    series.notes.push(`${plural(repeated, "streamed line repeats", "streamed lines repeat")} the usage of a message already counted (same message.id): counted once`);
  if (zeroed > 0)
    series.notes.push(
      `${plural(zeroed, "assistant message records", "assistant messages record")} all-zero usage (Claude Code zeroes usage on messages preserved across a resume; synthetic and aborted messages have none): left out`,
    );
  return series;
}

function contextOf(figures: { input: number; cacheRead: number; cacheWrite: number }): number {
  return figures.input + figures.cacheRead + figures.cacheWrite;
}
