/**
 * Shared by the readers whose files record compactions as steps over a
 * running context (Copilot, Gemini, OpenCode, Cline/Roo/Kilo): each step
 * turns the context the agent was sending into the one it sends next. One
 * replay gives both the recorded context (the last state) and the recorded
 * compactions (each step's before and after), so the two never disagree.
 */
import type { Message, RecordedCompaction, RecordedContext } from "../model.ts";

/** A compaction as the replay meets it: the record's own fields (the neutral type's), and what it does to the context. */
export type CompactionStep = Pick<RecordedCompaction, "line" | "entryId" | "timestamp" | "kind" | "trigger" | "tokensBefore" | "tokensAfter" | "summary"> & {
  /** The context right after this step, given the one right before it. */
  apply(before: Message[]): Message[];
};

/** A message that takes the place of earlier ones as it is sent (not a compaction: Copilot's re-sent system prompt). */
export interface Replacing {
  message: Message;
  replaces(earlier: Message): boolean;
}

export type ContextItem = Message | CompactionStep | Replacing;

/** A message's identity across a compaction: a copy written again by the compaction keeps its source id in meta. */
export type SameMessage = (message: Message) => string;

const byId: SameMessage = (message) => message.id;

/**
 * Walk `items` in order: a message is appended to the running context, a
 * step replaces the running context with its result. `branch` is every
 * message on the path, for the final list of what no longer reaches the
 * model (including messages never sent at all, such as Gemini's info lines).
 */
export function replayContext(
  branch: readonly Message[],
  items: readonly ContextItem[],
  identity: SameMessage = byId,
): { context: RecordedContext; compactions: RecordedCompaction[] } {
  let context: Message[] = [];
  const compactions: RecordedCompaction[] = [];
  for (const item of items) {
    if ("replaces" in item) {
      context = [...context.filter((m) => !item.replaces(m)), item.message];
      continue;
    }
    if (!("apply" in item)) {
      context.push(item);
      continue;
    }
    // Copies: the running context keeps growing, each record's before and after must not.
    const before = context.slice();
    const after = item.apply(before);
    const kept = new Set(after.map(identity));
    const droppedMessageIds = before.filter((m) => !kept.has(identity(m))).map((m) => m.id);
    const { apply: _apply, ...fields } = item;
    compactions.push({ index: compactions.length + 1, ...fields, before, after, droppedMessageIds });
    context = after.slice();
  }
  // A branch message no longer reaches the model unless the final context holds it as it was read
  // (a compaction's copy or a cleared placeholder does not count): the recorded strategy archives the rest.
  const sent = new Set(context);
  const droppedMessageIds = branch.filter((m) => !sent.has(m)).map((m) => m.id);
  return { context: { messages: context, compactions: compactions.length, droppedMessageIds }, compactions };
}
