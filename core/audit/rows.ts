/**
 * The per-compaction row the CLI's `audit --json`, the HTML report and the
 * Markdown scorecard all print, projected from one CompactionAudit.
 */
import type { CompactionAudit } from "./moment.ts";

export interface CompactionRow {
  index: number;
  line: number;
  entryId: string;
  kind: string;
  trigger: "auto" | "manual" | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  messagesBefore: number;
  messagesAfter: number;
  facts: { asked: number; recorded: number; transparent: number };
  dropped: {
    facts: { probe: string; fact: string }[];
    humanMessages: { messageId: string; line: number | null; fate: "summarised" | "dropped" }[];
    toolOutputs: { messageId: string; callId: string | null; toolName: string | null; fate: "dropped" | "cleared"; recoveryId: string; bytes: number; sha256: string }[];
  };
}

export function compactionRow(audit: CompactionAudit): CompactionRow {
  return {
    index: audit.index,
    line: audit.line,
    entryId: audit.entryId,
    kind: audit.kind,
    trigger: audit.trigger,
    tokensBefore: audit.tokensBefore,
    tokensAfter: audit.tokensAfter,
    messagesBefore: audit.messagesBefore,
    messagesAfter: audit.messagesAfter,
    facts: audit.facts,
    dropped: {
      facts: audit.dropped.facts,
      humanMessages: audit.dropped.humanMessages.map(({ messageId, line, fate }) => ({ messageId, line, fate })),
      toolOutputs: audit.dropped.toolOutputs.map(({ messageId, callId, toolName, fate, recoveryId, bytes, sha256 }) => ({
        messageId,
        callId,
        toolName,
        fate,
        recoveryId,
        bytes,
        sha256,
      })),
    },
  };
}

/** "#1 claude-compact (auto) · 168,483 → ? tokens · 405 → 1 messages · facts 3/5 kept, transparent 5/5 · dropped …" */
export function compactionLine(audit: CompactionAudit): string {
  const n = (value: number | null) => (value === null ? "?" : value.toLocaleString("en-US"));
  const tokens =
    audit.tokensBefore === null && audit.tokensAfter === null ? "no token figures in the file" : `${n(audit.tokensBefore)} → ${n(audit.tokensAfter)} tokens (the file's)`;
  const dropped = audit.dropped;
  return [
    `#${audit.index} line ${audit.line} ${audit.kind}${audit.trigger ? ` (${audit.trigger})` : ""}`,
    tokens,
    `${audit.messagesBefore} → ${audit.messagesAfter} messages`,
    `${audit.size.before.toLocaleString("en-US")} → ${audit.size.after.toLocaleString("en-US")} model-view tokens (transparent ${audit.size.transparent.toLocaleString("en-US")})`,
    `facts ${audit.facts.recorded}/${audit.facts.asked} kept, transparent ${audit.facts.transparent}/${audit.facts.asked}`,
    `dropped ${dropped.facts.length} fact(s), ${dropped.humanMessages.length} user message(s), ${dropped.toolOutputs.length} tool output(s)`,
  ].join(" · ");
}
