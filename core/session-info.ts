import type { Session } from "./model.ts";

/** The working directory the session recorded (Pi header, Claude Code lines, Codex session_meta), if any. */
export function sessionCwd(session: Session): string | undefined {
  const header = session.header as { cwd?: unknown } | undefined;
  return typeof header?.cwd === "string" ? header.cwd : undefined;
}
