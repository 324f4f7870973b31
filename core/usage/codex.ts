/**
 * Codex's usage: `event_msg` records of type `token_count`, one per model
 * call, with `info.last_token_usage` (that call), `info.total_token_usage`
 * (running sum) and `info.model_context_window`. OpenAI counts cached tokens
 * inside input_tokens: here `input` is the uncached part and `cacheRead` the
 * cached part, so contextTokens (input + cacheRead) is the file's input_tokens.
 * Codex sometimes writes the same event twice (same running total): once.
 */
import type { Entry, UsageSeries } from "../model.ts";
import { count, emptySeries, plural } from "./common.ts";

export function codexUsage(path: readonly Entry[]): UsageSeries {
  const series = emptySeries();
  let previousTotal: string | null = null;
  let repeated = 0;
  for (const entry of path) {
    if (entry.type !== "event_msg") continue;
    const payload = (entry.data as { payload?: unknown } | undefined)?.payload as Record<string, unknown> | undefined;
    if (payload?.type !== "token_count" || typeof payload.info !== "object" || payload.info === null) continue;
    const info = payload.info as Record<string, unknown>;
    if (typeof info.model_context_window === "number") series.contextWindow = info.model_context_window;
    const last = info.last_token_usage as Record<string, unknown> | undefined;
    if (typeof last !== "object" || last === null) continue;
    const total = JSON.stringify(info.total_token_usage ?? null);
    if (total === previousTotal) {
      repeated++;
      continue;
    }
    previousTotal = total;
    const inputTokens = count(last.input_tokens);
    const cached = Math.min(count(last.cached_input_tokens), inputTokens);
    series.turns.push({
      line: entry.line,
      input: inputTokens - cached,
      output: count(last.output_tokens),
      cacheRead: cached,
      cacheWrite: 0,
      contextTokens: inputTokens,
    });
  }
  if (series.turns.length > 0) series.notes.push("Codex counts cached tokens inside input_tokens: input is the uncached part, cacheRead the cached part");
  if (repeated > 0) series.notes.push(`${plural(repeated, "token_count event repeats", "token_count events repeat")} the previous running total: counted once`);
  return series;
}
