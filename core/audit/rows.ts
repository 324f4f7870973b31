/**
 * The per-compaction row the CLI's `audit --json`, the HTML report and the
 * Markdown scorecard all print, projected from one CompactionAudit.
 */
import { verdictSummary, type Verdict } from "../checkride/verdict.ts";
import type { CompactionAudit } from "./moment.ts";
import type { FactFate } from "./fact-ledger.ts";
import { viewAgainstFile } from "./view-vs-file.ts";

export interface CompactionRow {
  index: number;
  line: number;
  entryId: string;
  kind: string;
  trigger: "auto" | "manual" | null;
  /** The file's own figures; null when it states none. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The same contexts as the model reads them, counted by `viewTokensUnit` (core/audit/size.ts). */
  viewTokensBefore: number;
  viewTokensAfter: number;
  viewTokensUnit: string;
  messagesBefore: number;
  messagesAfter: number;
  /** kept + fellOut + goneBefore = asked (core/audit/fact-ledger.ts). */
  facts: CompactionAudit["facts"];
  /** Each probe asked: kept (with the items it lost, if any), fell out here, or already gone before. */
  factFates: { probe: string; fate: FactFate; missingItems: string[]; items: number }[];
  /** With a model reader (endpoint, local): its answers on the context right after, as correct, don't know or confidently wrong. */
  verdicts?: Record<Verdict, number>;
  dropped: {
    facts: { probe: string; fact: string; missingItems: string[] }[];
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
    viewTokensBefore: audit.size.before,
    viewTokensAfter: audit.size.after,
    viewTokensUnit: audit.size.unit,
    messagesBefore: audit.messagesBefore,
    messagesAfter: audit.messagesAfter,
    facts: audit.facts,
    factFates: audit.factFates.map(({ probe, fate, missingItems, items }) => ({ probe, fate, missingItems, items })),
    ...(audit.checkride.recorded.verdicts ? { verdicts: audit.checkride.recorded.verdicts } : {}),
    dropped: {
      facts: audit.dropped.facts.map(({ probe, fact, missingItems }) => ({ probe, fact, missingItems })),
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
    `${audit.size.before.toLocaleString("en-US")} → ${audit.size.after.toLocaleString("en-US")} model-view tokens (transparent ${audit.size.transparent.toLocaleString("en-US")})${exceeds(audit)}`,
    factsText(audit.facts),
    ...(audit.checkride.recorded.verdicts ? [`the model: ${verdictSummary(audit.checkride.recorded.verdicts)}`] : []),
    `dropped ${dropped.facts.length} fact(s), ${dropped.humanMessages.length} user message(s), ${dropped.toolOutputs.length} tool output(s)`,
  ].join(" · ");
}

/** "facts 3/5 kept (1 fell out here, 1 already gone before), transparent 5/5": the ledger's sum on one line. */
export function factsText(facts: CompactionAudit["facts"]): string {
  if (facts.asked === 0) return "no facts to check at this moment";
  const parts = [`${facts.fellOut} fell out here`, ...(facts.goneBefore ? [`${facts.goneBefore} already gone before`] : [])];
  return `facts ${facts.kept}/${facts.asked} kept (${parts.join(", ")}), transparent ${facts.transparent}/${facts.asked}`;
}

/** Where the model-view count exceeds the file's own figure, the row says so and why (core/audit/view-vs-file.ts). */
function exceeds(audit: CompactionAudit): string {
  const note = viewAgainstFile(audit.kind, audit.size.before, audit.tokensBefore).note ?? viewAgainstFile(audit.kind, audit.size.after, audit.tokensAfter).note;
  return note ? ` [${note}]` : "";
}
