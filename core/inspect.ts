/** The `inspect` summary: what the CLI prints and the app's header shows. */
import type { Session } from "./model.ts";

export interface InspectSummary {
  format: string;
  formatVersion: string | null;
  leafId: string | null;
  leaves: string[];
  branchMessages: number;
  recordedContextMessages: number;
  toolCalls: number;
  branchToolCalls: number;
  warnings: { line: number; message: string }[];
}

export function inspectSession(session: Session, leafId: string | null = null): InspectSummary {
  const leaf = leafId ?? session.defaultLeafId;
  const branch = session.branch(leaf);
  const branchCalls = new Set<string>();
  for (const message of branch) for (const block of message.blocks) if (block.type === "toolCall") branchCalls.add(block.id);
  return {
    format: session.format,
    formatVersion: session.formatVersion ?? null,
    leafId: leaf,
    leaves: session.leaves,
    branchMessages: branch.length,
    recordedContextMessages: session.recordedContext(leaf).messages.length,
    toolCalls: session.toolCallIds.size,
    branchToolCalls: branchCalls.size,
    warnings: session.warnings,
  };
}
