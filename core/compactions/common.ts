/**
 * The one mechanism for every format's compaction history: the compactions
 * the file records along a branch and the context the agent sends at the
 * end, computed in one pass so that the recorded context is, by
 * construction, the `after` of the last compaction plus everything after it.
 *
 * Two ways in, one collector: Pi, Claude Code and Codex walk their branch
 * themselves and call `record` at each compaction; the readers whose files
 * record compactions as steps over a running context (Copilot, Gemini,
 * OpenCode, Cline/Roo/Kilo) hand `replayContext` their messages and steps.
 */
import type { CompactionKind, Entry, Message, RecordedCompaction, RecordedContext } from "../model.ts";
import { messagesOf, type ReaderOutput } from "../formats/common.ts";
import { messagesLeft } from "../same-message.ts";

export interface CompactionHistory {
  compactions: RecordedCompaction[];
  /** The context after the last compaction plus every message after it. */
  recorded: RecordedContext;
}

/** The fields a format states about one compaction; index, contexts and dropped ids are filled in here. */
export type CompactionRecord = Omit<RecordedCompaction, "index" | "before" | "after" | "droppedMessageIds">;

/** A message's identity across a compaction: a copy written again by the compaction keeps its source id in meta. */
export type SameMessage = (message: Message) => string;

const byId: SameMessage = (message) => message.id;

/**
 * When a branch message still reaches the model at the end. "id": a message
 * whose id is in the final context (Claude Code's microcompact clears a
 * result in place under the same id, and that counts as kept). "same-object":
 * only the message as it was read (a compaction's copy or a cleared
 * placeholder, such as OpenCode's pruned output, does not count).
 */
export type StillSent = "id" | "same-object";

/**
 * Collects compactions in order. A format keeps the current context and
 * calls `record` at every compaction with the context just before and just
 * after it; the collector numbers them and works out what was dropped.
 */
export class CompactionCollector {
  readonly compactions: RecordedCompaction[] = [];

  constructor(private readonly identity: SameMessage = byId) {}

  record(fields: CompactionRecord, before: readonly Message[], after: Message[]): Message[] {
    // A message the compaction wrote again under a new id (core/same-message.ts) was kept, not dropped.
    const droppedMessageIds = messagesLeft(before, after, this.identity).map((message) => message.id);
    this.compactions.push({ ...fields, index: this.compactions.length + 1, before: [...before], after: [...after], droppedMessageIds });
    return after;
  }

  /**
   * Takes a compaction recorded before, as it was (the same path up to it: core/compactions/pi.ts),
   * when it is the next one; false, taking nothing, when its number says otherwise.
   */
  takeRecorded(compaction: RecordedCompaction): boolean {
    if (compaction.index !== this.compactions.length + 1) return false;
    this.compactions.push(compaction);
    return true;
  }

  /**
   * The history with `current` as the final context. Dropped ids are the
   * branch messages that are not in it (a later compaction may drop a message
   * an earlier one kept). Each compaction's own dropped ids, which the audit
   * badges, count a verbatim copy as kept (record, above).
   */
  finish(current: Message[], branch: readonly Message[], stillSent: StillSent = "id"): CompactionHistory {
    // By id (or object), not by copy: the recorded strategy archives every message the final
    // context does not send under its own id, so a copied message stays recoverable by its id.
    const droppedMessageIds = sameMessages(current, branch) ? [] : dropped(current, branch, stillSent);
    return { compactions: this.compactions, recorded: { messages: current, compactions: this.countedCompactions(), droppedMessageIds } };
  }

  /** What RecordedContext.compactions has always counted: every record but Pi's branch summaries, Claude's microcompacts and Codex's rollbacks. */
  private countedCompactions(): number {
    return this.compactions.filter((c) => !NOT_COUNTED.has(c.kind)).length;
  }
}

/** The branch messages `current` does not send. */
function dropped(current: readonly Message[], branch: readonly Message[], stillSent: StillSent): string[] {
  const sent = new Set<unknown>(stillSent === "id" ? current.map((message) => message.id) : current);
  return branch.filter((message) => !sent.has(stillSent === "id" ? message.id : message)).map((message) => message.id);
}

/** Every branch message sent as it was read, in order (a branch nothing compacted): nothing dropped, known without a set of every id. */
function sameMessages(current: readonly Message[], branch: readonly Message[]): boolean {
  if (current.length !== branch.length) return false;
  for (let i = 0; i < current.length; i++) if (current[i] !== branch[i]) return false;
  return true;
}

const NOT_COUNTED = new Set<CompactionKind>(["pi-branch-summary", "claude-microcompact", "codex-rollback"]);

/** A compaction as a replay meets it: the record's own fields (the neutral type's), and what it does to the context. */
export type CompactionStep = CompactionRecord & {
  /** The context right after this step, given the one right before it. */
  apply(before: Message[]): Message[];
};

/** A message that takes the place of earlier ones as it is sent (not a compaction: Copilot's re-sent system prompt). */
export interface Replacing {
  message: Message;
  replaces(earlier: Message): boolean;
}

/**
 * The agent set its running context again without compacting it (Gemini CLI
 * writes its whole history again on a new chat, a resume, a rewind or a
 * masking pass): the context becomes `restart`, and no compaction is recorded.
 * Messages it keeps are the ones already read (the same objects), so they
 * count as still sent.
 */
export interface Restart {
  restart: readonly Message[];
}

export type ContextItem = Message | CompactionStep | Replacing | Restart;

/**
 * Walk `items` in order: a message is appended to the running context, a
 * step replaces the running context with its result (a compaction), a
 * restart replaces it without one. `branch` is every
 * message on the path, for the final list of what no longer reaches the
 * model (including messages never sent at all, such as Gemini's info lines).
 */
export function replayContext(branch: readonly Message[], items: readonly ContextItem[], identity: SameMessage = byId): CompactionHistory {
  const collector = new CompactionCollector(identity);
  let context: Message[] = [];
  for (const item of items) {
    if ("restart" in item) {
      context = [...item.restart];
      continue;
    }
    if ("replaces" in item) {
      context = [...context.filter((m) => !item.replaces(m)), item.message];
      continue;
    }
    if (!("apply" in item)) {
      context.push(item);
      continue;
    }
    const { apply, ...fields } = item;
    // Copies: the running context keeps growing, each record's before and after must not.
    context = collector.record(fields, context, apply(context.slice())).slice();
  }
  return collector.finish(context, branch, "same-object");
}

/** A replaying reader's `recorded` and `compactions`: both from one replay of the path's messages and its steps. */
export function replayedHistory(itemsOf: (path: Entry[]) => readonly ContextItem[], identity?: SameMessage): Required<Pick<ReaderOutput, "recorded" | "compactions">> {
  const replay = (path: Entry[]) => replayContext(messagesOf(path), itemsOf(path), identity);
  return { recorded: (path) => replay(path).recorded, compactions: (path) => replay(path).compactions };
}

export function numberOr(value: unknown, fallback: number | null = null): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function triggerOf(value: unknown): "auto" | "manual" | null {
  return value === "auto" || value === "manual" ? value : null;
}
