/**
 * Codex's compactions along a rollout (linear), walking the response items
 * (the model's context; event messages only duplicate them for display).
 *
 * - `compacted {message, replacement_history?, window_number?}`: with a
 *   replacement_history, that list *is* the context after it; without one
 *   (older Codex) the context is rebuilt as Codex's own replay does: what
 *   came before the first user message, the user messages newest-first
 *   within 20,000 approximate tokens (the one that crosses the budget cut in
 *   the middle), then the summary. Opaque
 *   items (remote compaction's `encrypted_content`) are measured, never read.
 *   Token figures are the file's `token_count` events: the last one before
 *   the record, and the one Codex writes right after it (before any new item).
 * - `event_msg` `thread_rolled_back {num_turns}`: the newest N user turns
 *   leave the context.
 */
import { textOf, type Entry, type Message } from "../model.ts";
import { isRecord } from "../formats/common.ts";
import { responseItemMessages } from "../formats/codex-items.ts";
import { isRealUserMessage } from "../signals.ts";
import { rollbackTurns, startsUserTurn } from "../formats/codex-rollback.ts";
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
      const after = Array.isArray(history) ? replacementMessages(entry, history) : rebuiltHistory(current, record);
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
    const turns = rollbackTurns(entry);
    if (turns !== null) {
      current = collector.record(
        { line: entry.line, entryId: entry.id, timestamp: timestampOf(entry), kind: "codex-rollback", trigger: null, tokensBefore: lastTokens, tokensAfter: null, summary: null },
        current,
        withoutLastTurns(current, turns),
      );
      continue;
    }
    for (const message of entry.messages) if (message.role !== "summary") current.push(message);
  }
  return collector.finish(
    current,
    path.flatMap((entry) => entry.messages),
  );
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

/** Codex's budget for user messages kept verbatim by a compaction without replacement history (compact.rs). */
export const COMPACT_USER_MESSAGE_MAX_TOKENS = 20_000;

/** Codex's build_compacted_history over the current context, for records without replacement_history. */
function rebuiltHistory(current: readonly Message[], summary: Message | undefined): Message[] {
  const firstUser = current.findIndex(isUserTurn);
  const initial = firstUser === -1 ? [...current] : current.slice(0, firstUser);
  const users = current.filter(isUserTurn);
  const kept: Message[] = [];
  let remaining = COMPACT_USER_MESSAGE_MAX_TOKENS;
  for (let i = users.length - 1; i >= 0 && remaining > 0; i--) {
    const text = textOf(users[i]!);
    // Codex's approx_token_count: a token per 4 bytes, rounded up.
    const tokens = Math.ceil(new TextEncoder().encode(text).length / 4);
    if (tokens <= remaining) {
      kept.push(users[i]!);
      remaining -= tokens;
    } else {
      kept.push({ ...users[i]!, blocks: [{ type: "text", text: cutInTheMiddle(text, remaining * 4) }] });
      break;
    }
  }
  return [...initial, ...kept.reverse(), ...(summary ? [summary] : [])];
}

/** Head and tail of `text` within `chars`, the cut marked (Codex truncates in the middle). */
function cutInTheMiddle(text: string, chars: number): string {
  const half = Math.floor(chars / 2);
  return `${text.slice(0, half)}…[${text.length - 2 * half} characters cut]…${text.slice(text.length - half)}`;
}

/** UTF-8 bytes of the encrypted content of compaction items (remote compaction): shown by size, never read. */
function opaqueSize(history: unknown[]): number {
  let bytes = 0;
  for (const item of history) {
    if (isRecord(item) && item.type !== "reasoning" && typeof item.encrypted_content === "string") bytes += new TextEncoder().encode(item.encrypted_content).length;
  }
  return bytes;
}

/** A message the user wrote: where a turn starts, and what Codex keeps when it rebuilds a history (not its own instructions). */
function isUserTurn(message: Message): boolean {
  return startsUserTurn(message) && isRealUserMessage(message);
}

/** The context without its newest `turns` user turns (Codex's drop_last_n_user_turns). */
function withoutLastTurns(context: Message[], turns: number): Message[] {
  let found = 0;
  let earliest = context.length;
  for (let i = context.length - 1; i >= 0 && found < turns; i--) {
    if (isUserTurn(context[i]!)) {
      found++;
      earliest = i;
    }
  }
  // Rolling back more turns than there are leaves what came before the first one (instructions, environment).
  return context.slice(0, earliest);
}
