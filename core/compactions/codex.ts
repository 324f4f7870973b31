/**
 * Codex's compactions along a rollout (linear), walking the response items
 * (the model's context; event messages only duplicate them for display).
 *
 * - `compacted {message, replacement_history?, window_number?}`: with a
 *   replacement_history, that list *is* the context after it; without one
 *   (older Codex) the summary message stands for what came before. Opaque
 *   items (remote compaction's `encrypted_content`) are measured, never read.
 *   Token figures are the file's `token_count` events: the last one before
 *   the record, and the one Codex writes right after it (before any new item).
 * - `event_msg` `thread_rolled_back {num_turns}`: the newest N user turns
 *   leave the context.
 */
import type { Entry, Message } from "../model.ts";
import { isRecord } from "../formats/common.ts";
import { responseItemMessages } from "../formats/codex.ts";
import { isRealUserMessage } from "../signals.ts";
import { CompactionCollector, numberOr, stringOr, type CompactionHistory } from "./common.ts";

export function codexCompactionHistory(path: readonly Entry[]): CompactionHistory {
  const collector = new CompactionCollector();
  let current: Message[] = [];
  /** The figure of the last token_count seen. */
  let lastTokens: number | null = null;

  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    const event = eventPayload(entry);
    if (event?.type === "token_count") lastTokens = contextTokens(event);
    if (entry.type === "compacted") {
      const record = entry.messages[0];
      const payload = record?.meta ?? {};
      const history = payload.replacement_history;
      const after = Array.isArray(history) ? replacementMessages(entry, history) : record ? [record] : [];
      const opaqueBytes = Array.isArray(history) ? opaqueSize(history) : 0;
      const summaryBlock = record?.blocks[0];
      const summary = summaryBlock?.type === "text" && summaryBlock.text !== "" ? summaryBlock.text : null;
      current = collector.record(
        {
          line: entry.line,
          entryId: entry.id,
          timestamp: timestampOf(entry),
          kind: "codex-compacted",
          // Codex does not write down whether the compaction was automatic or asked for.
          trigger: null,
          tokensBefore: lastTokens,
          tokensAfter: tokensWrittenAfter(path, i),
          summary,
          ...(opaqueBytes > 0 ? { opaqueBytes } : {}),
          ...(typeof payload.window_number === "number" ? { windowNumber: payload.window_number } : {}),
        },
        current,
        after,
      );
      continue;
    }
    if (event?.type === "thread_rolled_back") {
      const turns = numberOr(event.num_turns, 1)!;
      current = collector.record(
        { line: entry.line, entryId: entry.id, timestamp: timestampOf(entry), kind: "codex-rollback", trigger: null, tokensBefore: lastTokens, tokensAfter: null, summary: null },
        current,
        withoutLastTurns(current, turns),
      );
      continue;
    }
    for (const message of entry.messages) if (message.role !== "summary") current.push(message);
  }
  return collector.finish(current, path.flatMap((entry) => entry.messages));
}

function eventPayload(entry: Entry): Record<string, unknown> | undefined {
  if (entry.type !== "event_msg" || !isRecord(entry.data) || !isRecord(entry.data.payload)) return undefined;
  return entry.data.payload;
}

function timestampOf(entry: Entry): string | undefined {
  if (isRecord(entry.data)) return stringOr(entry.data.timestamp);
  return stringOr(entry.messages[0]?.meta.timestamp);
}

/** The context a token_count reports: the last turn's total (input, cached input included, and output). */
function contextTokens(event: Record<string, unknown>): number | null {
  const info = isRecord(event.info) ? event.info : undefined;
  const last = info && isRecord(info.last_token_usage) ? info.last_token_usage : undefined;
  return last ? numberOr(last.total_tokens) : null;
}

/** Codex reports the compacted history's size in a token_count written before the next response item. */
function tokensWrittenAfter(path: readonly Entry[], compactedIndex: number): number | null {
  for (let i = compactedIndex + 1; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.messages.length > 0 || entry.type === "compacted") return null;
    const event = eventPayload(entry);
    if (event?.type === "token_count") return contextTokens(event);
  }
  return null;
}

function replacementMessages(entry: Entry, history: unknown[]): Message[] {
  const out: Message[] = [];
  history.forEach((item, i) => {
    if (isRecord(item)) out.push(...responseItemMessages(item, `${entry.id}.r${i}`, entry.line, new Set()));
  });
  return out;
}

/** UTF-8 bytes of the encrypted content of compaction items (remote compaction): shown by size, never read. */
function opaqueSize(history: unknown[]): number {
  let bytes = 0;
  for (const item of history) {
    if (isRecord(item) && item.type !== "reasoning" && typeof item.encrypted_content === "string") bytes += new TextEncoder().encode(item.encrypted_content).length;
  }
  return bytes;
}

/** The context without its newest `turns` user turns (a turn starts at a message the user wrote). */
function withoutLastTurns(context: Message[], turns: number): Message[] {
  let found = 0;
  let earliest = context.length;
  for (let i = context.length - 1; i >= 0 && found < turns; i--) {
    if (isRealUserMessage(context[i]!)) {
      found++;
      earliest = i;
    }
  }
  // Rolling back more turns than there are leaves what came before the first one (instructions, environment).
  return context.slice(0, earliest);
}
