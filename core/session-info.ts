import type { Session } from "./model.ts";

/** The working directory the session recorded (Pi header, Claude Code lines, Codex session_meta), if any. */
export function sessionCwd(session: Session): string | undefined {
  // Pi, Codex, Claude Code and Cline (its reader's) headers say `cwd`; an OpenCode export's session info says
  // `directory`; Copilot CLI's session.start its `context.cwd`.
  const header = session.header as { cwd?: unknown; directory?: unknown; info?: { directory?: unknown }; context?: { cwd?: unknown } } | undefined;
  for (const value of [header?.cwd, header?.directory, header?.info?.directory, header?.context?.cwd]) if (typeof value === "string" && value !== "") return value;
  return session.format === "codex" ? environmentContextCwd(session) : undefined;
}

/** How far into a Codex rollout its first `<environment_context>` is looked for: it is the first user turn's. */
const ENVIRONMENT_CONTEXT_ENTRIES = 50;

/**
 * Codex rollouts of 2025 before `session_meta` carried `cwd` (a bare header line, then records): the
 * working directory is in the `<environment_context>` Codex sends with the first turn.
 */
function environmentContextCwd(session: Session): string | undefined {
  for (const entry of session.entries.slice(0, ENVIRONMENT_CONTEXT_ENTRIES))
    for (const message of entry.messages)
      for (const block of message.blocks) {
        if (block.type !== "text" || !block.text.includes("<environment_context>")) continue;
        const cwd = /<cwd>([^<]+)<\/cwd>/.exec(block.text)?.[1]?.trim();
        if (cwd) return cwd;
      }
  return undefined;
}
