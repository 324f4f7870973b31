/**
 * Facts from the harness record only: what tools were called, with what
 * arguments, and what the structured results said; what the user wrote; and
 * an optional memory.md. Never from a model.
 */
import { textOf, type Message, type ToolCallBlock } from "../model.ts";
import { anchorsIn, errorLineOf, isRealUserMessage } from "../signals.ts";
import { toolCallsById, toolOutcome, type ToolOutcome } from "../tool-info.ts";

export interface CommandRun {
  command: string;
  passed: boolean | undefined;
  exitCode?: number;
  messageId: string;
  /** A distinctive line of the output when the run failed. */
  errorLine?: string;
}

export interface MemoryFacts {
  done: string[];
  plan: string[];
  next: string[];
  decisions: string[];
}

export interface Facts {
  modifiedFiles: string[];
  readFiles: string[];
  lastRun?: CommandRun;
  unresolvedError?: { text: string; command: string; messageId: string };
  latestRequest?: { text: string; messageId: string };
  anchors: { value: string; mentions: number }[];
  rules: { text: string; messageId: string }[];
  memory?: MemoryFacts;
}

const WRITE_TOOLS = new Set(["write", "edit", "multiedit", "notebookedit", "write_file", "edit_file", "str_replace_based_edit_tool", "create_file"]);
const READ_TOOLS = new Set(["read", "read_file", "view", "open_file"]);
const SHELL_TOOLS = new Set(["bash", "shell", "exec_command", "local_shell", "run_command", "terminal"]);
/** Commands that only look around; the "last significant command" skips them. */
const LOOK_AROUND = /^(ls|cat|head|tail|pwd|echo|cd|find|grep|rg|sed -n|wc|which|tree|stat|file|git (status|log|diff|show|branch))\b/;

/** "cd dir && npm test" is the run of "npm test": the cd only says where. */
export function significantPart(command: string): string {
  return command.trim().replace(/^(cd\s+("[^"]*"|'[^']*'|\S+)\s*(&&|;)\s*)+/, "");
}

function isLookAround(command: string): boolean {
  const part = significantPart(command);
  return part === "" || LOOK_AROUND.test(part);
}

export function normalizePath(path: string, cwd?: string): string {
  let out = path.replace(/\\/g, "/").trim();
  const base = cwd?.replace(/\\/g, "/").replace(/\/+$/, "");
  if (base && out.toLowerCase().startsWith(base.toLowerCase() + "/")) out = out.slice(base.length + 1);
  return out.replace(/^\.\//, "");
}

function argString(args: unknown, ...keys: string[]): string | undefined {
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

function commandOf(call: ToolCallBlock): string | undefined {
  const args = call.arguments;
  const direct = argString(args, "command", "cmd");
  if (direct) return direct;
  const list = typeof args === "object" && args !== null ? (args as { command?: unknown }).command : undefined;
  if (Array.isArray(list) && list.every((part) => typeof part === "string")) {
    // ["bash", "-lc", "npm test"] → "npm test"
    const parts = list as string[];
    if (parts.length >= 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && parts[1]!.startsWith("-")) return parts.slice(2).join(" ");
    return parts.join(" ");
  }
  return undefined;
}

function modifiedPathsOf(call: ToolCallBlock): string[] {
  const name = call.name.toLowerCase();
  if (WRITE_TOOLS.has(name)) {
    const path = argString(call.arguments, "path", "file_path", "notebook_path", "filename");
    return path ? [path] : [];
  }
  if (name === "apply_patch") {
    const patch = typeof call.arguments === "string" ? call.arguments : argString(call.arguments, "input", "patch");
    return patch ? patchPaths(patch) : [];
  }
  const command = typeof call.arguments === "object" && call.arguments !== null ? (call.arguments as { command?: unknown }).command : undefined;
  if (Array.isArray(command) && command[0] === "apply_patch" && typeof command[1] === "string") return patchPaths(command[1]);
  return [];
}

const RULE_WORDS = /\b(always|never|must|mustn't|must not|don't|do not|only|prefer|avoid|make sure)\b/i;

/** Rule-shaped sentences (and clauses joined by "and"/";") from one user message, verbatim. */
export function rulesIn(text: string): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    if (!RULE_WORDS.test(sentence)) continue;
    const clauses = sentence.split(/,\s*and\s+|;\s*/).map((c) => c.trim()).filter(Boolean);
    const ruleClauses = clauses.filter((clause) => RULE_WORDS.test(clause));
    if (ruleClauses.length > 1) out.push(...ruleClauses);
    else out.push(sentence.trim());
  }
  return out;
}

export function extractFacts(branch: readonly Message[], options: { cwd?: string; memory?: string } = {}): Facts {
  const calls = toolCallsById(branch);
  const outcomes = new Map<string, { outcome: ToolOutcome; message: Message }>();
  for (const message of branch) {
    if (message.role !== "toolResult") continue;
    const outcome = toolOutcome(message, calls);
    if (outcome.callId) outcomes.set(outcome.callId, { outcome, message });
  }

  const modified: string[] = [];
  const read: string[] = [];
  const addUnique = (list: string[], path: string) => {
    const normalized = normalizePath(path, options.cwd);
    if (normalized && !list.includes(normalized)) list.push(normalized);
  };
  let lastRun: CommandRun | undefined;
  for (const message of branch) {
    if (message.role === "bash" && typeof message.meta.command === "string") {
      const outcome = toolOutcome(message);
      if (!isLookAround(message.meta.command)) {
        lastRun = { command: message.meta.command, passed: outcome.isError === undefined ? undefined : !outcome.isError, exitCode: outcome.exitCode, messageId: message.id };
        if (lastRun.passed === false) lastRun.errorLine = errorLineOf(textOf(message));
      }
      continue;
    }
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      const result = outcomes.get(block.id);
      const failed = result?.outcome.isError === true;
      for (const path of modifiedPathsOf(block)) if (!failed) addUnique(modified, path);
      if (READ_TOOLS.has(block.name.toLowerCase())) {
        const path = argString(block.arguments, "path", "file_path");
        if (path && !failed) addUnique(read, path);
      }
      const command = SHELL_TOOLS.has(block.name.toLowerCase()) ? commandOf(block) : undefined;
      if (command && !isLookAround(command) && !command.trim().startsWith("apply_patch")) {
        const outcome = result?.outcome;
        lastRun = {
          command,
          passed: outcome?.isError === undefined ? undefined : !outcome.isError,
          exitCode: outcome?.exitCode,
          messageId: result?.message.id ?? message.id,
        };
        if (lastRun.passed === false && result) lastRun.errorLine = errorLineOf(textOf(result.message));
      }
    }
  }

  let latestRequest: Facts["latestRequest"];
  const rules: Facts["rules"] = [];
  for (let i = branch.length - 1; i >= 0; i--) {
    const message = branch[i]!;
    if (!isRealUserMessage(message)) continue;
    const text = textOf(message);
    latestRequest ??= { text, messageId: message.id };
    for (const rule of rulesIn(text)) rules.push({ text: rule, messageId: message.id });
  }

  const mentions = new Map<string, number>();
  for (const message of branch) {
    const text = message.blocks.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? JSON.stringify(b.arguments) : "")).join("\n");
    for (const anchor of anchorsIn(text)) mentions.set(anchor, (mentions.get(anchor) ?? 0) + 1);
  }
  const anchors = [...mentions].map(([value, count]) => ({ value, mentions: count })).sort((a, b) => b.mentions - a.mentions || a.value.localeCompare(b.value));

  const facts: Facts = { modifiedFiles: modified, readFiles: read.filter((p) => !modified.includes(p)), lastRun, anchors, rules, latestRequest };
  if (lastRun?.passed === false) facts.unresolvedError = { text: lastRun.errorLine ?? lastRun.command, command: lastRun.command, messageId: lastRun.messageId };
  if (options.memory !== undefined) facts.memory = parseMemory(options.memory);
  return facts;
}

/** memory.md: "Plan" checkboxes (done / open), "Next" and "Decisions" sections. */
export function parseMemory(text: string): MemoryFacts {
  const memory: MemoryFacts = { done: [], plan: [], next: [], decisions: [] };
  let section = "";
  for (const line of text.split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (heading) {
      section = heading[1]!.toLowerCase();
      continue;
    }
    const item = /^\s*[-*+]\s+(?:\[( |x|X)\]\s+)?(.+)$/.exec(line);
    if (!item) continue;
    const [, box, body] = item;
    if (section.startsWith("plan") && box !== undefined) (box.trim() ? memory.done : memory.plan).push(body!.trim());
    else if (section.startsWith("next")) memory.next.push(body!.trim());
    else if (section.startsWith("decision")) memory.decisions.push(body!.trim());
  }
  return memory;
}
