/** Each recorded compaction kind in plain words: the app, the CLI's library table and the library report say the same. */
import type { CompactionKind } from "../model.ts";

/** Every kind the core records has its words here: a new kind without them is a type error. */
const KINDS: Record<CompactionKind, string> = {
  "pi-compaction": "Pi compaction",
  "pi-branch-summary": "Pi branch summary",
  "claude-compact": "compact (summary)",
  "claude-microcompact": "microcompact (old tool outputs cleared)",
  "codex-compacted": "Codex compacted",
  "codex-rollback": "Codex rollback",
  "gemini-compression": "Gemini compression",
  "qwen-compression": "Qwen Code compression",
  "cline-truncation": "Cline truncation",
  "roo-condense": "Roo condense",
  "roo-truncation": "Roo truncation",
  "opencode-compaction": "OpenCode compaction",
  "opencode-prune": "OpenCode prune",
  "copilot-compaction": "Copilot compaction",
  "copilot-truncation": "Copilot truncation (oldest messages dropped)",
  "kiro-compact": "Kiro compact (summary)",
};

export function kindLabel(kind: string): string {
  return KINDS[kind as CompactionKind] ?? kind.replace(/[-_]/g, " ");
}
