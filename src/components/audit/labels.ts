/** Plain words for the audit's figures, shared by the timeline, dividers, the dropped panel and the presenter. */
import type { CompactionKind } from "../../../core/model.ts";
import type { AuditEntry } from "../../store/audit.ts";

/** Every kind the core records has its words here: a new kind without them is a type error. */
const KINDS: Record<CompactionKind, string> = {
  "pi-compaction": "Pi compaction",
  "pi-branch-summary": "Pi branch summary",
  "claude-compact": "compact (summary)",
  "claude-microcompact": "microcompact (old tool outputs cleared)",
  "codex-compacted": "Codex compacted",
  "codex-rollback": "Codex rollback",
  "gemini-compression": "Gemini compression",
  "cline-truncation": "Cline truncation",
  "roo-condense": "Roo condense",
  "roo-truncation": "Roo truncation",
  "opencode-compaction": "OpenCode compaction",
  "opencode-prune": "OpenCode prune",
  "copilot-compaction": "Copilot compaction",
  "copilot-truncation": "Copilot truncation (oldest messages dropped)",
};

export function kindLabel(kind: string): string {
  return KINDS[kind as CompactionKind] ?? kind.replace(/[-_]/g, " ");
}

/** "12/15 facts kept" once the audit is in; what it is waiting for before. */
export function scoreText(entry: AuditEntry | undefined): string {
  if (!entry || entry.status === "loading") return "facts: checking…";
  if (entry.status === "error") return "facts: not checked";
  const audit = entry.audit;
  if (!audit || audit.facts.asked === 0) return "no facts to check";
  return `${audit.facts.recorded}/${audit.facts.asked} facts kept`;
}

export function shortScore(entry: AuditEntry | undefined): string {
  if (!entry || entry.status !== "done" || !entry.audit) return entry?.status === "error" ? "–" : "…";
  return entry.audit.facts.asked ? `${entry.audit.facts.recorded}/${entry.audit.facts.asked}` : "–";
}

export function compactTokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}
