/**
 * Pi's usage: every assistant message carries `usage {input, output,
 * cacheRead, cacheWrite, totalTokens}` for the call that produced it. Pi's
 * totalTokens includes the output; the context the model read is
 * input + cacheRead + cacheWrite. Aborted and errored turns record zeros.
 */
import type { Entry, UsageSeries, UsageTurn } from "../model.ts";
import { count, isAllZero, plural } from "./common.ts";
import { foldUsage, type UsageFold } from "./fold.ts";

export function piUsage(path: readonly Entry[]): UsageSeries {
  return foldUsage(new PiUsageFold(), path);
}

export class PiUsageFold implements UsageFold {
  private turns: UsageTurn[] = [];
  private zeroed = 0;
  /** Copied: what goes on from it reads its state, so it takes no more entries. */
  private copied = false;

  add(entry: Entry): void {
    if (this.copied) throw new Error("a usage fold that was copied takes no more entries (go on from its copy)");
    if (entry.type !== "message") return;
    const message = entry.messages[0];
    const usage = message?.meta.usage;
    if (!message || message.role !== "assistant" || typeof usage !== "object" || usage === null) return;
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
      this.zeroed++;
      return;
    }
    turn.contextTokens = turn.input + turn.cacheRead + turn.cacheWrite;
    this.turns.push(turn);
  }

  series(): UsageSeries {
    const notes = this.zeroed > 0 ? [`${plural(this.zeroed, "assistant message records", "assistant messages record")} all-zero usage (aborted or errored turns): left out`] : [];
    return { turns: this.turns.slice(), contextWindow: null, notes };
  }

  copy(): PiUsageFold {
    this.copied = true;
    const next = new PiUsageFold();
    next.turns = this.turns.slice();
    next.zeroed = this.zeroed;
    return next;
  }
}
