/**
 * Pi's usage: every assistant message carries `usage {input, output,
 * cacheRead, cacheWrite, totalTokens}` for the call that produced it. Pi's
 * totalTokens includes the output; the context the model read is
 * input + cacheRead + cacheWrite. Aborted and errored turns record zeros.
 */
import type { Entry, UsageSeries, UsageTurn } from "../model.ts";
import { count, emptySeries, isAllZero, plural } from "./common.ts";

export function piUsage(path: readonly Entry[]): UsageSeries {
  const series = emptySeries();
  let zeroed = 0;
  for (const entry of path) {
    if (entry.type !== "message") continue;
    const message = entry.messages[0];
    const usage = message?.meta.usage;
    if (!message || message.role !== "assistant" || typeof usage !== "object" || usage === null) continue;
    const u = usage as Record<string, unknown>;
    const turn: UsageTurn = {
      line: entry.line,
      messageId: message.id,
      input: count(u.input),
      output: count(u.output),
      cacheRead: count(u.cacheRead),
      cacheWrite: count(u.cacheWrite),
      contextTokens: 0,
    };
    if (isAllZero(turn)) {
      zeroed++;
      continue;
    }
    turn.contextTokens = turn.input + turn.cacheRead + turn.cacheWrite;
    series.turns.push(turn);
  }
  if (zeroed > 0) series.notes.push(`${plural(zeroed, "assistant message records", "assistant messages record")} all-zero usage (aborted or errored turns): left out`);
  return series;
}
