/**
 * Pi's compactions along a branch. The context at any entry is Pi's own
 * `buildSessionContext` with that entry as the leaf: the latest compaction's
 * summary, the entries from its firstKeptEntryId up to it, then everything
 * after it (branch summaries only when they have text). A compaction's
 * `before` is that context at the entry just before it, its `after` the
 * context at the compaction itself; a `branch_summary` is recorded the same
 * way (it adds the summary of an abandoned branch; nothing on this branch is
 * dropped by it).
 */
import type { Entry, Message } from "../model.ts";
import { CompactionCollector, numberOr, stringOr, type CompactionHistory } from "./common.ts";

/** The id of a compaction's first kept entry (v1 files store an index, resolved by the reader). */
export type FirstKeptId = (compaction: Entry) => string | undefined;

export function piCompactionHistory(path: readonly Entry[], firstKeptId: FirstKeptId): CompactionHistory {
  const collector = new CompactionCollector();
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type !== "compaction" && entry.type !== "branch_summary") continue;
    const record = entry.messages[0];
    const meta = record?.meta ?? {};
    const summaryBlock = record?.blocks[0];
    collector.record(
      {
        line: entry.line,
        entryId: entry.id,
        timestamp: stringOr(meta.timestamp),
        kind: entry.type === "compaction" ? "pi-compaction" : "pi-branch-summary",
        // Pi does not write down whether a compaction was automatic or asked for.
        trigger: null,
        tokensBefore: numberOr(meta.tokensBefore),
        tokensAfter: null,
        summary: summaryBlock?.type === "text" ? summaryBlock.text : null,
      },
      piContextAt(path, i - 1, firstKeptId),
      piContextAt(path, i, firstKeptId),
    );
  }
  const branch = path.flatMap((entry) => entry.messages);
  return collector.finish(piContextAt(path, path.length - 1, firstKeptId), branch);
}

/** Pi's buildSessionContext with path[last] as the leaf (an empty context for last < 0). */
export function piContextAt(path: readonly Entry[], last: number, firstKeptId: FirstKeptId): Message[] {
  let compactionIndex = -1;
  for (let i = last; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      compactionIndex = i;
      break;
    }
  }
  const messages: Message[] = [];
  const take = (entry: Entry) => {
    if (contributes(entry)) messages.push(...entry.messages);
  };
  if (compactionIndex === -1) {
    for (let i = 0; i <= last; i++) take(path[i]!);
    return messages;
  }
  const compaction = path[compactionIndex]!;
  messages.push(...compaction.messages);
  const firstKept = firstKeptId(compaction);
  let keeping = false;
  for (let i = 0; i < compactionIndex; i++) {
    if (path[i]!.id === firstKept) keeping = true;
    if (keeping) take(path[i]!);
  }
  for (let i = compactionIndex + 1; i <= last; i++) take(path[i]!);
  return messages;
}

/** Which entries Pi sends: messages, custom messages, and branch summaries with text (compactions only as the latest summary). */
function contributes(entry: Entry): boolean {
  if (entry.type === "message" || entry.type === "custom_message") return entry.messages.length > 0;
  if (entry.type === "branch_summary") {
    const block = entry.messages[0]?.blocks[0];
    return block?.type === "text" && block.text !== "";
  }
  return false;
}
