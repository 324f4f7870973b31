/**
 * What a compaction dropped, read off its before and after contexts: the
 * facts present before and missing after (per probe item, graded by the
 * literal reader), the messages the user wrote that left the context (gone,
 * or standing only in the summary), and the tool outputs that left it or were
 * cleared in place, each with the hash that recovers it from the original.
 */
import { recoveryId } from "../checkpoint.ts";
import type { CheckrideResult } from "../checkride/run.ts";
import { digestPayloads } from "../hash.ts";
import { textOf, type Message } from "../model.ts";
import { isRealUserMessage } from "../signals.ts";
import { toolOutcome } from "../tool-info.ts";

export interface DroppedFact {
  probe: string;
  /** The answer-key item present before the compaction and missing after it. */
  fact: string;
}

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
 * Probes whose items are the words of one fact (the request, the error line,
 * the verifying command): what fell out is that fact, once, not its words.
 */
const ONE_FACT_PROBES = new Set(["intent", "error", "verify"]);

/** The facts each probe had on the before context and no longer has on the after context. */
export function droppedFacts(before: CheckrideResult, after: CheckrideResult): DroppedFact[] {
  const out: DroppedFact[] = [];
  for (const probe of before.probes) {
    const afterProbe = after.probes.find((p) => p.id === probe.id);
    if (ONE_FACT_PROBES.has(probe.id)) {
      if (probe.status === "pass" && afterProbe?.status !== "pass" && probe.expected) out.push({ probe: probe.id, fact: probe.expected });
      continue;
    }
    const stillThere = new Set(afterProbe?.matched ?? []);
    for (const item of probe.matched) if (!stillThere.has(item)) out.push({ probe: probe.id, fact: item });
  }
  return out;
}

/**
 * Messages of `after` that repeat a `before` message verbatim under a new id
 * (Codex's replacement history copies the user's messages), after id → before
 * id: "show in the other pane" follows it, and such a message is not dropped.
 */
export function copiedMessages(before: readonly Message[], after: readonly Message[]): Record<string, string> {
  const beforeIds = new Set(before.map((m) => m.id));
  const byText = new Map<string, string>();
  for (const m of before) if (m.role === "user" || m.role === "assistant") byText.set(`${m.role}\n${textOf(m)}`, m.id);
  const out: Record<string, string> = {};
  for (const m of after) {
    if (beforeIds.has(m.id) || (m.role !== "user" && m.role !== "assistant")) continue;
    const source = byText.get(`${m.role}\n${textOf(m)}`);
    if (source !== undefined && textOf(m) !== "") out[m.id] = source;
  }
  return out;
}

/** User messages of `before` that `after` no longer carries, by id or as a verbatim copy (see copiedMessages). */
export function droppedHumanMessages(
  before: readonly Message[],
  after: readonly Message[],
  summarised: boolean,
  copies: Record<string, string> = copiedMessages(before, after),
): DroppedHumanMessage[] {
  const kept = new Set([...after.map((m) => m.id), ...Object.values(copies)]);
  return before
    .filter((m) => isRealUserMessage(m) && !kept.has(m.id))
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
