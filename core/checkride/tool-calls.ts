/**
 * What a tool call did, read from its name and arguments across formats:
 * the files it wrote or read, and the shell command it ran.
 */
import type { ToolCallBlock } from "../model.ts";
import { codeModeCommands, codeModePatches } from "./codex-code-mode.ts";
import { contextModeCommands } from "./context-mode.ts";
import { shellFolderCopies, shellWrittenPaths, type FolderCopy } from "./shell-writes.ts";

/** Tools that write a file named by a path argument (Claude Code, Pi, Gemini CLI, Cline and its UI log, OpenCode, Copilot CLI). */
const WRITE_TOOLS = new Set([
  "write",
  "edit",
  "multiedit",
  "notebookedit",
  "write_file",
  "edit_file",
  "str_replace_based_edit_tool",
  // Copilot CLI's editor tool (its `view` reads, as str_replace_based_edit_tool's does).
  "str_replace_editor",
  "create_file",
  "create",
  "replace",
  "write_to_file",
  "replace_in_file",
  "str_replace",
  "insert",
  "patch",
  // A Cline UI log names the tool use by what it shows (core/formats/cline-ui.ts).
  "editedexistingfile",
  "newfilecreated",
  "filedeleted",
  // Kiro CLI and Amazon Q CLI; Kiro's IDE agent.
  "fs_write",
  "fswrite",
  "fsappend",
  "strreplace",
  // VS Code Copilot's agent mode (multi_replace_string_in_file is read below: it names a file per replacement).
  "replace_string_in_file",
  "insert_edit_into_file",
  "edit_notebook_file",
  // Cursor.
  "search_replace",
]);
const READ_TOOLS = new Set(["read", "read_file", "view", "open_file", "read_many_files", "readfile"]);
export const SHELL_TOOLS = new Set([
  "bash",
  "shell",
  "exec_command",
  "local_shell",
  "run_command",
  "terminal",
  "run_shell_command",
  "execute_command",
  "powershell",
  "run_in_terminal",
  "shell_command",
  "execute_bash",
  // Cursor, Kiro's IDE agent.
  "run_terminal_cmd",
  "executebash",
]);
const PATH_KEYS = ["path", "file_path", "filePath", "absolute_path", "absolutePath", "notebook_path", "filename", "target_file"];

/**
 * A tool's name as the tables above know it. Zed's Claude Code adapter (claude-code-acp) serves the
 * built-in tools from its own MCP server, named "acp", so a session run from Zed calls
 * `mcp__acp__Edit`, `mcp__acp__Write`, `mcp__acp__Bash`: the same tools under a prefix.
 */
export function baseToolName(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith("mcp__acp__") ? lower.slice("mcp__acp__".length) : lower;
}

export function argString(args: unknown, ...keys: string[]): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** Paths a Codex apply_patch names. */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) out.push(match[1]!.trim());
  for (const match of patch.matchAll(/^\*\*\* Move to: (.+)$/gm)) out.push(match[1]!.trim());
  return out;
}

export function commandOf(call: ToolCallBlock): string | undefined {
  const args = call.arguments;
  const direct = argString(args, "command", "cmd");
  if (direct) return direct;
  const list = typeof args === "object" && args !== null ? (args as { command?: unknown }).command : undefined;
  if (Array.isArray(list) && list.every((part) => typeof part === "string")) {
    // ["bash", "-lc", "npm test"] → "npm test"
    const parts = list as string[];
    // Codex's ["apply_patch", "*** Begin Patch…"] applies a patch (modifiedPathsOf reads it): no command is run.
    if (parts[0] === "apply_patch") return undefined;
    if (parts.length >= 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && parts[1]!.startsWith("-")) return parts.slice(2).join(" ");
    return parts.join(" ");
  }
  return undefined;
}

export function modifiedPathsOf(call: ToolCallBlock): string[] {
  const name = baseToolName(call.name);
  if (name === "apply_patch") {
    // Codex's input, or OpenCode's patchText.
    const patch = typeof call.arguments === "string" ? call.arguments : argString(call.arguments, "input", "patch", "patchText");
    return patch ? patchPaths(patch) : [];
  }
  if (name === "multi_replace_string_in_file") {
    const replacements = typeof call.arguments === "object" && call.arguments !== null ? (call.arguments as { replacements?: unknown }).replacements : undefined;
    return Array.isArray(replacements) ? [...new Set(replacements.map((replacement) => argString(replacement, ...PATH_KEYS)).filter((path) => path !== undefined))] : [];
  }
  if (WRITE_TOOLS.has(name)) {
    // str_replace_based_edit_tool's "view" reads; every other command writes.
    if (argString(call.arguments, "command") === "view") return [];
    const path = argString(call.arguments, ...PATH_KEYS);
    return path ? [path] : [];
  }
  const command = typeof call.arguments === "object" && call.arguments !== null ? (call.arguments as { command?: unknown }).command : undefined;
  if (Array.isArray(command) && command[0] === "apply_patch" && typeof command[1] === "string") return patchPaths(command[1]);
  if (isCodeModeExec(call)) {
    const source = call.arguments as string;
    return [...codeModePatches(source).flatMap(patchPaths), ...codeModeCommands(source).flatMap(shellWrittenPaths)];
  }
  const contextMode = contextModeCommands(call);
  if (contextMode.length > 0) return contextMode.flatMap(({ command }) => shellWrittenPaths(command));
  if (SHELL_TOOLS.has(name)) {
    const line = commandOf(call);
    // Codex's exec_command carries apply_patch heredocs.
    if (line?.includes("*** Begin Patch")) return patchPaths(line);
    return line ? shellWrittenPaths(line) : [];
  }
  return [];
}

/** Codex's code-mode `exec`: a JavaScript program as the call's input (core/checkride/codex-code-mode.ts). */
export function isCodeModeExec(call: ToolCallBlock): boolean {
  return call.name === "exec" && typeof call.arguments === "string";
}

/** Every shell command a call runs: one for a shell tool, each `tools.exec_command` of a code-mode program, each of a context-mode batch. */
export function commandsOf(call: ToolCallBlock): string[] {
  if (isCodeModeExec(call)) return codeModeCommands(call.arguments as string);
  const contextMode = contextModeCommands(call);
  if (contextMode.length > 0) return contextMode.map(({ command }) => command);
  if (!SHELL_TOOLS.has(baseToolName(call.name))) return [];
  const command = commandOf(call);
  return command ? [command] : [];
}

/** The folders a call's shell commands move or copy whole (`mv a b`, `cp -r a b`). */
export function folderCopiesOf(call: ToolCallBlock): FolderCopy[] {
  return commandsOf(call).flatMap(shellFolderCopies);
}

export function readPathOf(call: ToolCallBlock): string | undefined {
  const name = baseToolName(call.name);
  if (READ_TOOLS.has(name) || ((name === "str_replace_based_edit_tool" || name === "str_replace_editor") && argString(call.arguments, "command") === "view"))
    return argString(call.arguments, ...PATH_KEYS);
  return undefined;
}
