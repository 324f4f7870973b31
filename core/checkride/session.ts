/**
 * What the checkride needs to know of a loaded session to read its facts:
 * its format (which text is human) and its header's ids. The loop over the
 * strategies lives in core/evaluate/.
 */
import type { Message, Session } from "../model.ts";
import { sessionCwd } from "../session-info.ts";
import { claudeDelegatedMessages } from "../formats/claude-progress.ts";
import type { FactOptions } from "./facts.ts";

export { sessionCwd };

/**
 * Fact options for a loaded session: its format (which text is human), its header's ids (never
 * anchors) and its subagents' work recorded beside the branch. Used by the CLI, the report, the
 * audit, the labelled sets' scores and the app alike.
 */
export function factOptions(session: Pick<Session, "format" | "header" | "entries">, cwd: string | undefined, memory?: string): FactOptions {
  return { cwd, memory, format: session.format, sessionIds: headerIds(session.header), delegated: delegatedWork(session) };
}

/** What the session's subagents did that the file records beside the branch (FactOptions.delegated): Claude Code's progress lines. */
export function delegatedWork(session: Pick<Session, "format" | "entries">): readonly Message[] {
  return session.format === "claude" ? claudeDelegatedMessages(session.entries) : [];
}

/** The ids a session's header gives it (Pi's session id, Codex's session_meta id): never anchors. */
export function headerIds(header: unknown): string[] {
  if (typeof header !== "object" || header === null) return [];
  const record = header as Record<string, unknown>;
  const payload = typeof record.payload === "object" && record.payload !== null ? (record.payload as Record<string, unknown>) : {};
  return [record.id, record.sessionId, record.session_id, payload.id, payload.session_id].filter((v): v is string => typeof v === "string");
}
