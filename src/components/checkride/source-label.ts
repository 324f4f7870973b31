/** "user, line 214": where a fact came from, in words a reader can find in the file. */
import type { FactSource } from "../../../core/checkride/source.ts";

const ROLE_WORDS: Record<string, string> = {
  toolResult: "tool result",
  tool: "tool result",
  bashExecution: "bash",
  branchSummary: "branch summary",
  compactionSummary: "compaction summary",
};

export function sourceLabel(source: FactSource): string {
  const role = source.role ? (ROLE_WORDS[source.role] ?? source.role) : "message";
  return source.line !== undefined ? `${role}, line ${source.line}` : `${role} message`;
}
