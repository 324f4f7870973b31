/**
 * What a compaction dropped, read off its before and after contexts: the
 * messages the user wrote that left the context (gone, or standing only in
 * the summary), and the tool outputs that left it or were
 * cleared in place, each with the hash that recovers it from the original.
 * The facts that fell out are core/audit/fact-ledger.ts's.
 */
import { recoveryId } from "../checkpoint.ts";
import { digestPayloads } from "../hash.ts";
import type { Message } from "../model.ts";
import { matchMessages, messagesLeft } from "../same-message.ts";
import { isRealUserMessage } from "../signals.ts";
import { toolOutcome } from "../tool-info.ts";

export interface DroppedHumanMessage {
  messageId: string;
  line: number | null;
  /** "summarised" when the compaction wrote a summary in its place, "dropped" when nothing stands for it. */
  fate: "summarised" | "dropped";
  chars: number;
}

export interface DroppedToolOutput {
  messageId: string;
  line: number | null;
  callId: string | null;
  toolName: string | null;
  /** "dropped": the whole result left the context; "cleared": it stayed with its content replaced. */
  fate: "dropped" | "cleared";
  /** Recovery from the original: the id, size and SHA-256 of the output (the message's blocks), as the archive records them. */
  recoveryId: string;
  bytes: number;
  sha256: string;
}

/**
 * Messages of `after` that repeat a `before` message verbatim under a new id
 * (Codex's replacement history copies the user's messages), after id → before
 * id: "show in the other pane" follows it, and such a message is not dropped.
 */
export function copiedMessages(before: readonly Message[], after: readonly Message[]): Record<string, string> {
  const sources = matchMessages(before, after);
  const out: Record<string, string> = {};
  after.forEach((message, i) => {
    const source = before[sources[i]!];
    if (source && source.id !== message.id) out[message.id] = source.id;
  });
  return out;
}

/** User messages of `before` that `after` no longer carries, by id or as a verbatim copy (core/same-message.ts). */
export function droppedHumanMessages(before: readonly Message[], after: readonly Message[], summarised: boolean): DroppedHumanMessage[] {
  return messagesLeft(before, after)
    .filter(isRealUserMessage)
    .map((m) => ({
      messageId: m.id,
      line: m.line ?? null,
      fate: summarised ? "summarised" : "dropped",
      chars: m.blocks.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0),
    }));
}

/** `original`: the branch's messages by id, so a result cleared by an earlier compaction is still hashed as it was read. */
export async function droppedToolOutputs(before: readonly Message[], after: readonly Message[], original: ReadonlyMap<string, Message>): Promise<DroppedToolOutput[]> {
  const afterById = new Map(after.map((m) => [m.id, m]));
  const gone: { message: Message; fate: DroppedToolOutput["fate"] }[] = [];
  for (const message of before) {
    if (message.role !== "toolResult" && message.role !== "bash") continue;
    const kept = afterById.get(message.id);
    if (!kept) gone.push({ message, fate: "dropped" });
    else if (kept.blocks !== message.blocks) gone.push({ message, fate: "cleared" });
  }
  const digests = await digestPayloads(gone.map(({ message }) => (original.get(message.id) ?? message).blocks));
  return gone.map(({ message, fate }, i) => {
    const outcome = toolOutcome(message);
    return {
      messageId: message.id,
      line: message.line ?? null,
      callId: outcome.callId ?? null,
      toolName: outcome.toolName ?? null,
      fate,
      recoveryId: recoveryId(message.id, "/blocks"),
      bytes: digests[i]!.bytes,
      sha256: digests[i]!.sha256,
    };
  });
}
