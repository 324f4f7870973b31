/**
 * Formats whose files never record a compaction the agent makes: said
 * plainly wherever the audit would otherwise just find none, so that "no
 * recorded compaction" is not read as "the agent never compacted".
 */
import type { FormatName, Session } from "../model.ts";
import { isRecord } from "../formats/common.ts";

const UNRECORDED: Partial<Record<FormatName, string>> = {
  cursor:
    "Cursor's agent transcripts record the messages only: when Cursor summarises a long chat it writes nothing of it here, so this file cannot show whether, or where, it compacted.",
  aider:
    "Aider summarises older messages in memory when its chat history grows too long and writes nothing of it to .aider.chat.history.md: this file cannot show whether, or where, it compacted.",
};

/** A Cline task read from its UI log alone (core/formats/cline-ui.ts). */
const UI_LOG_ONLY =
  "This is a Cline UI log read without its api_conversation_history.json: Cline's truncations and condenses index that history, so this file cannot show what they dropped (the session's warning counts those it records).";

/** Why this session's file shows no compaction however long the session, or null where its compactions are recorded. */
export function compactionsUnrecorded(session: Pick<Session, "format" | "header">): string | null {
  if (session.format === "cline" && isRecord(session.header) && session.header.uiLogOnly === true) return UI_LOG_ONLY;
  return UNRECORDED[session.format] ?? null;
}
