import type { Session } from "./model.ts";

/** The working directory the session recorded (Pi header, Claude Code lines, Codex session_meta), if any. */
export function sessionCwd(session: Session): string | undefined {
  // Pi, Codex and Claude Code headers say `cwd`; an OpenCode export's session info says `directory`.
  const header = session.header as { cwd?: unknown; directory?: unknown; info?: { directory?: unknown } } | undefined;
  for (const value of [header?.cwd, header?.directory, header?.info?.directory]) if (typeof value === "string" && value !== "") return value;
  return undefined;
}
