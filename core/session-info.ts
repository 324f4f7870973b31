import type { Session } from "./model.ts";

/** The working directory the session recorded (Pi header, Claude Code lines, Codex session_meta), if any. */
export function sessionCwd(session: Session): string | undefined {
  // Pi, Codex, Claude Code and Cline (its reader's) headers say `cwd`; an OpenCode export's session info says
  // `directory`; Copilot CLI's session.start its `context.cwd`.
  const header = session.header as { cwd?: unknown; directory?: unknown; info?: { directory?: unknown }; context?: { cwd?: unknown } } | undefined;
  for (const value of [header?.cwd, header?.directory, header?.info?.directory, header?.context?.cwd]) if (typeof value === "string" && value !== "") return value;
  return undefined;
}
