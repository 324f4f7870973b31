/**
 * The context-mode tools some Pi (and Claude Code) users add: they run shell
 * commands and keep the output in a searchable index instead of the context.
 * `ctx_batch_execute` takes a list (`{commands: [{label, command}]}`) and
 * answers with one text that lists the commands, then only the sections a
 * search matched, each under `### <label>` with `$ <command>` and its output;
 * `ctx_execute` runs `code` in a `language`, a shell among them. Shapes as
 * these tools write them in real Pi sessions (no exit code per command).
 */
import type { ToolCallBlock } from "../model.ts";

export interface ContextModeCommand {
  command: string;
  /** The section name its output is indexed under (a batch's commands). */
  label?: string;
}

const SHELLS = new Set(["shell", "bash", "sh", "zsh"]);

export function contextModeCommands(call: ToolCallBlock): ContextModeCommand[] {
  const args = typeof call.arguments === "object" && call.arguments !== null ? (call.arguments as Record<string, unknown>) : {};
  if (call.name === "ctx_batch_execute" && Array.isArray(args.commands)) {
    return args.commands.flatMap((item): ContextModeCommand[] => {
      if (typeof item === "string") return item.trim() ? [{ command: item }] : [];
      if (typeof item !== "object" || item === null) return [];
      const { command, label } = item as { command?: unknown; label?: unknown };
      if (typeof command !== "string" || command.trim() === "") return [];
      return [typeof label === "string" && label !== "" ? { command, label } : { command }];
    });
  }
  if (call.name === "ctx_execute" && typeof args.code === "string" && typeof args.language === "string" && SHELLS.has(args.language.toLowerCase())) {
    return args.code.trim() ? [{ command: args.code }] : [];
  }
  return [];
}

/**
 * A batch command's own output in the batch's answer: its section, when the answer shows it (the
 * index may have matched other sections only; then nothing is known of how it ended).
 */
export function batchSectionOutput(answer: string, label: string): string | undefined {
  const heading = `### ${label}\n`;
  const start = answer.startsWith(heading) ? 0 : answer.indexOf(`\n${heading}`);
  if (start === -1) return undefined;
  const from = start === 0 ? heading.length : start + 1 + heading.length;
  const next = answer.slice(from).search(/\n#{2,3} /);
  return next === -1 ? answer.slice(from) : answer.slice(from, from + next);
}
