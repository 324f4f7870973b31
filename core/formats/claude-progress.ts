/**
 * The work of Claude Code's subagents as the session file records it beside
 * the branch. Since 2.1, a subagent started by a `Task`/`Agent` call streams
 * each of its messages into the parent's transcript as a `progress` line:
 * `data.type: "agent_progress"`, `data.message` the subagent's own record
 * (`{type, message, uuid, timestamp}`, the shape of a transcript line) and
 * `parentToolUseID` the call that started it. Those lines hang off the main
 * chain and carry no message of the conversation, so the branch never shows
 * them; what the subagent wrote is still the session's work (LABELS.md:
 * files the agent wrote), which the answer key reads from here.
 */
import type { Entry, Message } from "../model.ts";
import { claudeMessages } from "./claude.ts";
import { isRecord } from "./common.ts";

/** Per entries list, what was read of it: a followed session's list grows in place, so only new entries are read. */
const read = new WeakMap<readonly Entry[], { entries: number; messages: Message[]; seen: Set<string> }>();

/**
 * Every subagent message the file's progress lines hold, in file order, once each (by the
 * subagent record's uuid), each with `meta.delegatedBy`: the id of the call that started it.
 */
export function claudeDelegatedMessages(entries: readonly Entry[]): Message[] {
  let known = read.get(entries);
  if (!known || known.entries > entries.length) read.set(entries, (known = { entries: 0, messages: [], seen: new Set() }));
  for (; known.entries < entries.length; known.entries++) {
    const entry = entries[known.entries]!;
    if (entry.type !== "progress" || !isRecord(entry.data)) continue;
    const progress = entry.data.data;
    const callId = entry.data.parentToolUseID;
    if (!isRecord(progress) || progress.type !== "agent_progress" || typeof callId !== "string") continue;
    const record = progress.message;
    if (!isRecord(record) || typeof record.uuid !== "string" || known.seen.has(record.uuid)) continue;
    known.seen.add(record.uuid);
    for (const message of claudeMessages(record, entry.line, new Set())) {
      known.messages.push({ ...message, meta: { ...message.meta, delegatedBy: callId, agentId: progress.agentId } });
    }
  }
  return known.messages;
}
