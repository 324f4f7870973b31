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
import type { Entry, Message, RecordedCompaction } from "../model.ts";
import { CompactionCollector, numberOr, stringOr, type CompactionHistory } from "./common.ts";

/** The id of a compaction's first kept entry (v1 files store an index, resolved by the reader). */
export type FirstKeptId = (compaction: Entry) => string | undefined;

export function piCompactionHistory(path: readonly Entry[], firstKeptId: FirstKeptId): CompactionHistory {
  const collector = new CompactionCollector();
  const shared = new SharedStarts(path);
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type !== "compaction" && entry.type !== "branch_summary") continue;
    const earlier = recordedOn.get(entry);
    if (earlier && earlier.at === i && shared.holds(earlier.path, i) && collector.takeRecorded(earlier.compaction)) continue;
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
    recordedOn.set(entry, { path, at: i, compaction: collector.compactions.at(-1)! });
  }
  const branch = path.flatMap((entry) => entry.messages);
  return collector.finish(piContextAt(path, path.length - 1, firstKeptId), branch);
}

/**
 * Each compaction's record by its entry, with the path it was recorded on and where. Its record
 * (contexts before and after, what it dropped, its number) depends on the path up to it alone, so a
 * later path that starts with the same entries (a followed file's next look) records it the same way.
 */
const recordedOn = new WeakMap<Entry, { path: readonly Entry[]; at: number; compaction: RecordedCompaction }>();

/** How many leading entries `path` shares with each earlier path asked about, each measured once. */
class SharedStarts {
  private readonly lengths = new Map<readonly Entry[], number>();
  constructor(private readonly path: readonly Entry[]) {}

  /** Whether `earlier` and this path hold the same entries up to index `at`. */
  holds(earlier: readonly Entry[], at: number): boolean {
    let length = this.lengths.get(earlier);
    if (length === undefined) {
      length = 0;
      const limit = Math.min(earlier.length, this.path.length);
      while (length < limit && earlier[length] === this.path[length]) length++;
      this.lengths.set(earlier, length);
    }
    return at < length;
  }
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
