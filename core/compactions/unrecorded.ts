/**
 * Formats whose files never record a compaction the agent makes: said
 * plainly wherever the audit would otherwise just find none, so that "no
 * recorded compaction" is not read as "the agent never compacted".
 */
import type { FormatName } from "../model.ts";

const UNRECORDED: Partial<Record<FormatName, string>> = {
  cursor:
    "Cursor's agent transcripts record the messages only: when Cursor summarises a long chat it writes nothing of it here, so this file cannot show whether, or where, it compacted.",
  aider:
    "Aider summarises older messages in memory when its chat history grows too long and writes nothing of it to .aider.chat.history.md: this file cannot show whether, or where, it compacted.",
};

/** Why a file of this format shows no compaction however long the session, or null where its compactions are recorded. */
export function compactionsUnrecorded(format: FormatName): string | null {
  return UNRECORDED[format] ?? null;
}
