/**
 * Which view a freshly loaded session opens on. A user's own file that
 * records compactions opens on the audit of its last one (what the agent
 * itself dropped is the question they came with); a row of the library opens
 * on the compaction it names; a demo, or a link that names a strategy view,
 * opens as before. The strategy comparison stays one click away.
 */
import type { LoadSource, SessionSummary } from "../worker/protocol.ts";

export interface LoadIntent {
  /** The recorded compaction to open on (a library row), 1-based. */
  compaction?: number;
  /** The session of a database (OpenCode's opencode.db) to open, by id; the latest when absent. */
  databaseSession?: string;
}

/** The index of the recorded compaction to audit first, or null for the strategy view. */
export function compactionToOpen(source: LoadSource, session: Pick<SessionSummary, "recordedCompactions">, followsLink: boolean, intent: LoadIntent = {}): number | null {
  if (followsLink) return null;
  const count = session.recordedCompactions;
  if (count === 0) return null;
  if (intent.compaction !== undefined) return intent.compaction >= 1 && intent.compaction <= count ? intent.compaction : count;
  return source.kind === "file" || source.kind === "files" ? count : null;
}
