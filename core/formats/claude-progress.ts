/**
 * The work of Claude Code's subagents as the session file records it beside
 * the branch. Since 2.1, a subagent started by a `Task`/`Agent` call streams
 * each of its messages into the parent's transcript as a `progress` line:
 * `data.type: "agent_progress"`, `data.message` the subagent's own record
 * (`{type, message, uuid, timestamp}`, the shape of a transcript line) and
 * `parentToolUseID` the call that started it. Those lines hang off the main
 * chain and carry no message of the conversation, so the branch never shows
 * them; what the subagent wrote is still the session's work (LABELS.md:
 * files the agent wrote), which the answer key reads from here. A subagent's
 * own transcript, given beside the session (`subagents/agent-<id>.jsonl`,
 * claude-subagents.ts) or written into it as `isSidechain` lines, is the same
 * work where its entries hang under the entry of the call that started it
 * (sidechain lines whose chain reaches no such entry name no call, and are
 * left out).
 */
import type { Entry, Message } from "../model.ts";
import { claudeMessages } from "./claude.ts";
import { isRecord } from "./common.ts";

/** Per entries list, what was read of it: a followed session's list grows in place, so only new entries are read. */
const read = new WeakMap<readonly Entry[], DelegatedSoFar>();

interface DelegatedSoFar {
  entries: number;
  messages: Message[];
  seen: Set<string>;
  /** Sidechain entries and entries holding a tool call, by id: what a sidechain's walk up can meet. */
  byId: Map<string, Entry>;
  /** A sidechain entry's id → the call that started its subagent ("" when none is found). */
  startedBy: Map<string, string>;
}

/**
 * Every subagent message the file records beside the branch, in file order, once each, each with
 * `meta.delegatedBy`: the id of the call that started it. From progress lines (by the subagent
 * record's uuid) and from sidechain entries (the first tool call of the nearest entry above them
 * that is not a sidechain's: the Task call they hang under).
 */
export function claudeDelegatedMessages(entries: readonly Entry[]): Message[] {
  let known = read.get(entries);
  if (!known || known.entries > entries.length) read.set(entries, (known = { entries: 0, messages: [], seen: new Set(), byId: new Map(), startedBy: new Map() }));
  for (; known.entries < entries.length; known.entries++) {
    const entry = entries[known.entries]!;
    // Only what a sidechain's walk up can meet: its own entries and the entries holding a call that may start one.
    if (entry.sidechain || firstCall(entry) !== "") known.byId.set(entry.id, entry);
    if (entry.sidechain) {
      const callId = startingCall(entry, known);
      if (callId) for (const message of entry.messages) known.messages.push({ ...message, meta: { ...message.meta, delegatedBy: callId } });
      continue;
    }
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

/** The call a sidechain entry's subagent was started by: a tool call of the first entry above it off the sidechain. */
function startingCall(entry: Entry, known: DelegatedSoFar): string {
  // Up the parents (each met once: a chain of sidechain entries is walked, not recursed) to a known answer or the main chain.
  const walked: string[] = [];
  let callId: string | undefined;
  for (let at: Entry | undefined = entry; callId === undefined;) {
    const cached = known.startedBy.get(at.id);
    if (cached !== undefined) callId = cached;
    else if (!at.sidechain) callId = firstCall(at);
    else {
      walked.push(at.id);
      const parent: Entry | undefined = at.parentId === null || walked.length > known.byId.size ? undefined : known.byId.get(at.parentId);
      if (parent) at = parent;
      else callId = "";
    }
  }
  for (const id of walked) known.startedBy.set(id, callId);
  return callId;
}

function firstCall(entry: Entry): string {
  for (const message of entry.messages) for (const block of message.blocks) if (block.type === "toolCall") return block.id;
  return "";
}
