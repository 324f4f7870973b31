/**
 * A Claude Code session given with its subagent transcripts
 * (`<sessionId>/subagents/agent-<id>.jsonl`, every line `isSidechain`, with
 * `agent-<id>.meta.json` beside it). Each subagent's first lines are hung
 * under the parent's `Task`/`Agent` call that started it: the call's result
 * line names the agent in `toolUseResult.agentId`. The subagent's branch then
 * opens from the call, and the main branch is unchanged.
 *
 * Lines: a subagent file's lines are numbered on from the session file's, as
 * if the files were joined in the order given (warnings name the file).
 */
import type { Entry, LoadWarning } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { readClaude } from "./claude.ts";
import { isRecord, type ReaderOutput } from "./common.ts";

export interface SubagentTranscript {
  agentId: string;
  fileName: string;
  records: JsonLine[];
  /** agent-<id>.meta.json, parsed, when given ({agentType, description}). */
  meta?: unknown;
}

/** `agent-<id>.jsonl` → `<id>`; null for any other name. */
export function subagentIdOf(fileName: string): string | null {
  return /^agent-(.+)\.jsonl$/.exec(fileName)?.[1] ?? null;
}

export function readClaudeWithSubagents(mainRecords: JsonLine[], subagents: SubagentTranscript[], strict: boolean): ReaderOutput {
  const main = readClaude(mainRecords, strict);
  const calls = callEntriesByAgent(main.entries);
  let offset = mainRecords.reduce((max, r) => Math.max(max, r.line), 0);
  const entries: Entry[] = [...main.entries];
  const warnings: LoadWarning[] = [...main.warnings];
  const toolCallIds = new Set(main.toolCallIds);
  for (const agent of subagents) {
    const shifted = agent.records.map((r) => ({ line: r.line + offset, value: r.value }));
    const output = readClaude(shifted, strict);
    for (const warning of output.warnings) warnings.push({ line: warning.line, message: `${agent.fileName}: ${warning.message}` });
    for (const id of output.toolCallIds) toolCallIds.add(id);
    const callEntry = calls.get(agent.agentId);
    if (!callEntry) warnings.push({ line: offset + 1, message: `${agent.fileName}: no Task/Agent call in the session names agent ${agent.agentId}; its transcript stands alone` });
    for (const entry of output.entries) {
      entry.sidechain = true;
      if (entry.parentId === null && callEntry) {
        entry.parentId = callEntry;
        if (agent.meta !== undefined) entry.data = { ...(isRecord(entry.data) ? entry.data : {}), subagentMeta: agent.meta };
      }
      entries.push(entry);
    }
    offset = shifted.reduce((max, r) => Math.max(max, r.line), offset);
  }
  return { ...main, entries, warnings, toolCallIds };
}

/** agentId → the entry holding the tool call whose result names that agent. */
function callEntriesByAgent(entries: Entry[]): Map<string, string> {
  const callOwner = new Map<string, string>();
  for (const entry of entries) for (const message of entry.messages) for (const block of message.blocks) if (block.type === "toolCall") callOwner.set(block.id, entry.id);
  const out = new Map<string, string>();
  for (const entry of entries) {
    for (const message of entry.messages) {
      const record = isRecord(message.meta.record) ? message.meta.record : null;
      const result = record && isRecord(record.toolUseResult) ? record.toolUseResult : null;
      const callId = isRecord(message.meta.toolResult) ? message.meta.toolResult.tool_use_id : undefined;
      if (result && typeof result.agentId === "string" && typeof callId === "string" && callOwner.has(callId)) out.set(result.agentId, callOwner.get(callId)!);
    }
  }
  return out;
}
