/** What the header and the branch picker show of a session. */
import { textOf, type Session } from "../../core/model.ts";
import { oneLine } from "../../core/text.ts";
import type { LeafOption, SessionSummary } from "./protocol.ts";

const LEAF_LABEL_CHARS = 90;

/** A leaf is labelled by the last user message on its path. */
export function leafLabel(session: Session, leafId: string): string {
  const path = session.path(leafId);
  for (let i = path.length - 1; i >= 0; i--) {
    const user = path[i]!.messages.find((m) => m.role === "user" && textOf(m).trim() !== "");
    if (user) return oneLine(textOf(user), LEAF_LABEL_CHARS);
  }
  return "(no user message)";
}

export function summarizeSession(session: Session, name: string, bytes: number, sha256: string, timings: SessionSummary["timings"]): SessionSummary {
  const leaves: LeafOption[] = session.leaves.map((id) => ({
    id,
    label: leafLabel(session, id),
    messages: session.branch(id).length,
    isDefault: id === session.defaultLeafId,
  }));
  return {
    name,
    bytes,
    sha256,
    format: session.format,
    formatVersion: session.formatVersion ?? null,
    leaves,
    defaultLeafId: session.defaultLeafId,
    warnings: session.warnings,
    toolCalls: session.toolCallIds.size,
    // The same count the timeline and the audit show (microcompacts included).
    recordedCompactions: session.recordedCompactions(null).length,
    timings,
  };
}
