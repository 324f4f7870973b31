/** Plain words for the audit's figures, shared by the timeline, dividers, the dropped panel and the presenter. */
export { kindLabel } from "../../../core/audit/kind-labels.ts";
import type { AuditEntry } from "../../store/audit.ts";
import { formatCount } from "../format.ts";

/** "12/15 facts kept" once the audit is in; what it is waiting for before. */
export function scoreText(entry: AuditEntry | undefined): string {
  if (!entry || entry.status === "loading") return "facts: checking…";
  if (entry.status === "error") return "facts: not checked";
  const audit = entry.audit;
  if (!audit || audit.facts.asked === 0) return "no facts to check";
  return `${audit.facts.kept}/${audit.facts.asked} facts kept`;
}

export function shortScore(entry: AuditEntry | undefined): string {
  if (!entry || entry.status !== "done" || !entry.audit) return entry?.status === "error" ? "–" : "…";
  return entry.audit.facts.asked ? `${entry.audit.facts.kept}/${entry.audit.facts.asked}` : "–";
}

export function compactTokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

/**
 * The token figures a file states for one compaction, or null when it states none. A Claude Code
 * microcompact's preTokens is not the context's size (a real session's usage put the context at
 * 150,210 tokens just before a microcompact whose preTokens was 78,208), so it says so.
 */
export function fileTokensText(kind: string, before: number | null, after: number | null): string | null {
  if (before === null) return null;
  const text = `the file's tokens ${formatCount(before)} → ${after !== null ? formatCount(after) : "not stated"}`;
  return kind === "claude-microcompact" ? `${text} (the microcompact's own count, not the context's size)` : text;
}
