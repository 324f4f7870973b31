/**
 * Facts from the harness record only: what tools were called, with what
 * arguments, and what the structured results said; what a human wrote; and
 * an optional memory.md. Never from a model. Every fact carries its source.
 */
import { documentProse, humanProse, humanSpans, type TextSpan } from "../human-text.ts";
import { textOf, type FormatName, type Message, type ToolCallBlock } from "../model.ts";
import { toolCallsById, toolOutcome, type ToolOutcome } from "../tool-info.ts";
import { anchorsOf, type Anchor } from "./anchors.ts";
import { commandOf, commandsOf, folderCopiesOf, isCodeModeExec, modifiedPathsOf, readPathOf } from "./tool-calls.ts";
import { batchSectionOutput, contextModeCommands } from "./context-mode.ts";
import { runningCell } from "./codex-code-mode.ts";
import { DECLARED_RULE, ruleFindings, ruleKey } from "./rules.ts";
import { sourceAt, sourceIn, type FactSource } from "./source.ts";
import { failureLineOf, isVerification, NAMED_ERROR_LINE, outputSaysFailed, scriptsRun, verificationOutcome } from "./verify.ts";
import { lastVerification, unresolvedFailure, type ShellRun } from "./runs.ts";
import { inferredWorkspace, OUTSIDE_ANY_WORK } from "./workspace.ts";
import { backgroundReports, backgroundTaskOf, reportIsError } from "./background-runs.ts";
import { filesTheOutputCreated, runOutput } from "./run-output.ts";
import { errorCandidates, neverRan, type ErrorCandidate } from "./error-candidates.ts";

export { patchPaths } from "./tool-calls.ts";
export { rulesIn } from "./rules.ts";
export { significantPart } from "./verify.ts";
export type { FactSource } from "./source.ts";
export type { Anchor } from "./anchors.ts";

export interface CommandRun {
  command: string;
  passed: boolean | undefined;
  exitCode?: number;
  /** The result message (or the call's, when no result was recorded). */
  messageId: string;
  /** A distinctive line of the output when the run failed. */
  errorLine?: string;
  source: FactSource;
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
  /** Where each modified or read path was first touched, by path. */
  fileSources: Record<string, FactSource>;
  lastRun?: CommandRun;
  unresolvedError?: { text: string; command: string; messageId: string; source: FactSource };
  /** Failures it is not sure are unresolved (newest first, each with why): shown, graded only once the user accepts one. */
  errorCandidates?: ErrorCandidate[];
  latestRequest?: { text: string; messageId: string; source: FactSource };
  /** Anchors the extractor is sure of (graded), most mentioned first. */
  anchors: Anchor[];
  /** Anchors it is not sure of (links, refs, codes only in prose), each with why: graded once the user accepts one. */
  anchorCandidates: (Anchor & { why: string })[];
  /** Standing instructions from human text the extractor is sure of (graded), oldest first (newest last), deduplicated. */
  rules: { text: string; messageId: string; source: FactSource; sayings?: FactSource[] }[];
  /** Rule-shaped sentences it is not sure of, each with why: shown, graded only once the user accepts one. */
  ruleCandidates: { text: string; messageId: string; source: FactSource; why: string; sayings?: FactSource[] }[];
  memory?: MemoryFacts;
}

export interface FactOptions {
  cwd?: string;
  memory?: string;
  /** The session's format: sharpens which text counts as human. */
  format?: FormatName;
  /** Ids the session gives itself outside its messages (the header's id). */
  sessionIds?: readonly string[];
  /**
   * The messages of the session's subagents that the file records beside the branch (delegatedWork,
   * core/checkride/session.ts), each naming the call that started it in `meta.delegatedBy`. What a
   * subagent started by a call on the branch wrote is a modified file of the session (LABELS.md:
   * files the agent wrote), its source that call.
   */
  delegated?: readonly Message[];
}

export function normalizePath(path: string, cwd?: string): string {
  let out = path.replace(/\\/g, "/").trim();
  const base = cwd?.replace(/\\/g, "/").replace(/\/+$/, "");
  // Git Bash names a Windows drive as a folder ("/c/Users/a/app"): on a Windows session it is that drive.
  if (base && /^[A-Za-z]:\//.test(base)) out = out.replace(/^\/([A-Za-z])\//, "$1:/");
  // "~/app/a.ts" where the session runs in that home folder, or below it: the home's own files (~/.claude/…) stay outside.
  const home = base && HOME_FOLDER.exec(base)?.[0];
  if (home && /^~\/(?!\.)/.test(out)) out = home + out.slice(1);
  if (base && out.toLowerCase().startsWith(base.toLowerCase() + "/")) out = out.slice(base.length + 1);
  return out.replace(/^\.\//, "");
}

/** The home folder a working directory is in: /Users/<name>, /home/<name>, C:/Users/<name>, /root. */
const HOME_FOLDER = /^(\/Users\/[^/]+|\/home\/[^/]+|[A-Za-z]:\/Users\/[^/]+|\/root)(?=\/|$)/i;

function isOutsideWork(path: string, cwd: string | undefined): boolean {
  if (OUTSIDE_ANY_WORK.test(path)) return true;
  // Climbing out of the work into a dot folder (`../../../.gemini/tmp/…/plans/a.md`): an agent's or a tool's own state.
  if (/^(\.\.\/)+\./.test(path)) return true;
  // Still absolute once made relative to the working directory: a file of another folder (another checkout,
  // a worktree, the home folder), outside the repository the session works in. Kept when the session names no folder.
  return cwd !== undefined && /^(\/|[A-Za-z]:\/)/.test(path);
}

/** `path` (absolute) from the folder `from` (absolute), with `..` for each folder up: `/h/u/tmp` → `/h/u/app/a.ts` is `../app/a.ts`. */
export function relativePath(from: string, path: string): string {
  const base = from.replace(/\\/g, "/").replace(/\/+$/, "").split("/");
  const target = path.split("/");
  // Windows paths name the same folder in any case.
  const same = (a: string, b: string) => (/^[A-Za-z]:$/.test(base[0] ?? "") ? a.toLowerCase() === b.toLowerCase() : a === b);
  let shared = 0;
  while (shared < base.length && shared < target.length - 1 && same(base[shared]!, target[shared]!)) shared++;
  return [...Array<string>(base.length - shared).fill(".."), ...target.slice(shared)].join("/");
}

function spanSource(message: Message, spans: readonly TextSpan[]): FactSource {
  const first = spans[0]!;
  const last = spans[spans.length - 1]!;
  const text = textOf(message).slice(first.start, last.end);
  return { messageId: message.id, ...(message.line !== undefined ? { line: message.line } : {}), span: [first.start, last.end], quote: text, role: message.role };
}

/** A rule is graded once the human has typed it in this many messages (see extractFacts). */
export const GRADED_RULE_SAYINGS = 2;
const SAID_ONCE = "reads as a standing rule, but was said once: rules read from their words alone were mostly one-off requests on sessions labelled blind";

interface Result {
  outcome: ToolOutcome;
  message: Message;
}

/** Every shell command the branch ran, in order, with how it ended (core/checkride/runs.ts reads them). */
function commandRuns(branch: readonly Message[], outcomes: Map<string, Result>): ShellRun[] {
  const runs: ShellRun[] = [];
  const consider = (command: string, outcome: ToolOutcome | undefined, result: Message | undefined, call: Message, ownOutput?: string, pending = isPending(result)) => {
    const output = ownOutput ?? (result ? runOutput(result) : "");
    const verification = isVerification(command, output);
    // A Codex code-mode program that completed says so but records no exit code: its output's failure lines decide.
    const completedProgram = outcome?.isError === undefined && output.startsWith("Script completed");
    // Killed by the harness's time limit (exit 124, "command timed out"): the exit code is the limit's; what the
    // check printed before it decides (a build that finished its route table, then hung on a watcher).
    const timedOut = outcome?.exitCode === 124 || /^command timed out after\b/.test(output);
    let passed = completedProgram ? !outputSaysFailed(output) : verificationOutcome(command, timedOut ? undefined : outcome?.isError, output);
    // No exit code recorded (Cline): an output that opens a line with a named error failed.
    if (passed === undefined && outcome?.isError === undefined && NAMED_ERROR_LINE.test(output)) passed = false;
    const at = result ?? call;
    const run: ShellRun = {
      command,
      passed,
      verification,
      exitCode: outcome?.exitCode,
      messageId: at.id,
      source: sourceAt(call, command),
      output,
      ...(pending ? { pending } : {}),
    };
    if (passed === false && result) {
      const line = failureLineOf(output);
      if (line) run.errorLine = line;
    }
    runs.push(run);
  };
  const cells = finishedCells(branch, outcomes);
  const tasks = backgroundReports(branch);
  for (const message of branch) {
    if (message.role === "bash" && typeof message.meta.command === "string") {
      consider(message.meta.command, toolOutcome(message), message, message);
      continue;
    }
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      const commands = commandsOf(block);
      if (commands.length === 0) continue;
      let result = outcomes.get(block.id);
      // A command the user denied never ran: it checked nothing, and failed at nothing.
      if (result && neverRan(result.message)) continue;
      // A code-mode program still running hands its output to a later wait on its cell.
      const cell = result && isCodeModeExec(block) ? runningCell(textOf(result.message)) : undefined;
      if (cell !== undefined) result = cells.get(cell) ?? result;
      const batch = block.name === "ctx_batch_execute" ? contextModeCommands(block) : [];
      if (batch.length > 0) {
        // One answer for the whole batch, and no exit code per command: each command's own section decides.
        const answer = result ? textOf(result.message) : "";
        for (const { command, label } of batch) {
          const section = label === undefined ? undefined : batchSectionOutput(answer, label);
          consider(
            command,
            result && section !== undefined ? { ...result.outcome, isError: undefined } : undefined,
            section === undefined ? undefined : result?.message,
            message,
            section ?? "",
          );
        }
        continue;
      }
      // A command sent to the background ended where a later report on its task says (core/checkride/background-runs.ts).
      const task = result ? backgroundTaskOf(textOf(result.message)) : undefined;
      const report = task === undefined ? undefined : tasks.get(task);
      if (report && commands.length === 1) {
        consider(
          commands[0]!,
          { ...result!.outcome, isError: reportIsError(report), exitCode: report.exitCode },
          report.message,
          message,
          report.output ?? "",
          report.status === "running",
        );
        continue;
      }
      if (task !== undefined) {
        // Started in the background and never reported on: it has no outcome yet.
        for (const command of commands) consider(command, { ...result!.outcome, isError: undefined }, result?.message, message, undefined, true);
        continue;
      }
      for (const command of commands) consider(command, result?.outcome, result?.message, message);
    }
  }
  return runs;
}

/** The folder a command starts by going to (`cd frontend; npx ng g c …`): where the files its output names are. */
function leadingFolder(command: string): string | undefined {
  const script = command.replace(/^\s*(?:pwsh|powershell)(?:\.exe)?\s+(?:-\w+\s+)*?-(?:Command|c)\s+/i, "");
  const folder = /^\s*(?:cd|Set-Location|pushd)\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*(?:&&|;|\n)/i.exec(script)?.[1];
  return folder?.replace(/^["']|["']$/g, "");
}

/** No result recorded, or one whose tool still runs (OpenCode's `state.status`: running or pending). */
function isPending(result: Message | undefined): boolean {
  if (!result) return true;
  const state = result.meta.state;
  return typeof state === "object" && state !== null && ["running", "pending"].includes(String((state as { status?: unknown }).status));
}

/** The result of the last `wait({cell_id})` on each Codex code-mode cell. */
function finishedCells(branch: readonly Message[], outcomes: Map<string, Result>): Map<string, Result> {
  const cells = new Map<string, Result>();
  for (const message of branch)
    for (const block of message.blocks) {
      if (block.type !== "toolCall" || block.name !== "wait") continue;
      const args = typeof block.arguments === "object" && block.arguments !== null ? (block.arguments as { cell_id?: unknown }) : {};
      const result = outcomes.get(block.id);
      if (result && (typeof args.cell_id === "string" || typeof args.cell_id === "number")) cells.set(String(args.cell_id), result);
    }
  return cells;
}

export function extractFacts(branch: readonly Message[], options: FactOptions = {}): Facts {
  const calls = toolCallsById(branch);
  const outcomes = new Map<string, Result>();
  for (const message of branch) {
    if (message.role !== "toolResult") continue;
    const outcome = toolOutcome(message, calls);
    if (outcome.callId) outcomes.set(outcome.callId, { outcome, message });
  }

  // A file that names no working directory (VS Code's Copilot agent) worked where its tools did.
  const cwd = options.cwd ?? inferredWorkspace(branch);
  const modified: string[] = [];
  const read: string[] = [];
  const fileSources: Record<string, FactSource> = {};
  // Writes to another folder of the machine (not the home folder's own files, not the system's), by path.
  const elsewhere = new Map<string, Message>();
  const addUnique = (list: string[], path: string, message: Message, onElsewhere?: (normalized: string) => void, source = sourceAt(message, path)) => {
    const normalized = normalizePath(path, cwd);
    if (!normalized || list.includes(normalized)) return;
    if (isOutsideWork(normalized, cwd)) {
      // The home folder's own files and the system's are never the work, wherever the session started.
      if (onElsewhere && !OUTSIDE_ANY_WORK.test(normalized)) onElsewhere(normalized);
      return;
    }
    list.push(normalized);
    fileSources[normalized] ??= source;
  };
  for (const message of branch) {
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      // A write that failed changed nothing.
      if (outcomes.get(block.id)?.outcome.isError === true) continue;
      for (const path of modifiedPathsOf(block)) addUnique(modified, path, message, (normalized) => elsewhere.has(normalized) || elsewhere.set(normalized, message));
      // A folder moved or copied whole writes, under its new place, every file the session wrote in it so far.
      for (const { from, to } of folderCopiesOf(block)) {
        const folder = normalizePath(from, cwd);
        const target = normalizePath(to, cwd);
        if (!folder || !target) continue;
        for (const path of modified.filter((file) => file.startsWith(`${folder}/`)))
          addUnique(modified, target + path.slice(folder.length), message, undefined, sourceAt(message, to));
      }
      const readPath = readPathOf(block);
      if (readPath) addUnique(read, readPath, message);
    }
  }
  const delegated = delegatedWrites(options.delegated, calls);
  // One click takes the reader to the call on the branch that started the subagent; the source names
  // the subagent and the file's line where its write is recorded.
  const callers = delegated.length > 0 ? callerMessages(branch) : new Map<string, Message>();
  for (const { callId, path, line } of delegated) {
    const caller = callers.get(callId);
    if (!caller) continue;
    const source: FactSource = { messageId: caller.id, ...(line !== undefined ? { line } : {}), quote: path, role: "subagent" };
    addUnique(modified, path, caller, (normalized) => elsewhere.has(normalized) || elsewhere.set(normalized, caller), source);
  }
  const runs = commandRuns(branch, outcomes);
  // Files a generator the agent ran says it created (`CREATE src/app/app.ts (225 bytes)`), where it did not fail.
  const byId = new Map(branch.map((message) => [message.id, message]));
  for (const run of runs) {
    if (run.passed === false || run.pending) continue;
    const call = byId.get(run.source.messageId);
    if (!call) continue;
    const folder = leadingFolder(run.command);
    for (const file of filesTheOutputCreated(run.output)) {
      const path = folder && !/^([A-Za-z]:)?[\\/]/.test(file) ? `${folder.replace(/[\\/]+$/, "")}/${file}` : file;
      addUnique(modified, path, call, (normalized) => elsewhere.has(normalized) || elsewhere.set(normalized, call), { ...sourceAt(call, run.command), quote: file });
    }
  }
  // A session that wrote nothing in its working directory worked in another folder (started in a scratch
  // folder, then `cd ../project`): its writes there are the work, relative to where the session started.
  if (modified.length === 0 && cwd)
    for (const [path, message] of elsewhere) {
      const relative = relativePath(cwd, path);
      if (modified.includes(relative)) continue;
      modified.push(relative);
      fileSources[relative] ??= sourceAt(message, path);
    }

  // A script the session wrote and then ran tries the work, whatever it is named (LABELS.md).
  const written = new Set(modified);
  for (const run of runs) if (!run.verification && scriptsRun(run.command).some((script) => written.has(normalizePath(script, cwd)))) run.verification = true;
  const lastRun = lastVerification(runs);

  let latestRequest: Facts["latestRequest"];
  // Keyed by the rule's normalised text; re-inserting moves a repeated rule to its newest saying (newest last).
  const rules = new Map<string, Facts["rules"][number]>();
  const candidates = new Map<string, Facts["ruleCandidates"][number]>();
  for (const message of branch) {
    const spans = humanSpans(message, options.format);
    if (spans.length === 0) continue;
    latestRequest = { text: spans.map((s) => s.text).join("\n\n"), messageId: message.id, source: spanSource(message, spans) };
    for (const rule of ruleFindings(humanProse(message, options.format), documentProse(message, options.format), textOf(message))) {
      const key = ruleKey(rule.text);
      const source = sourceIn(message, rule.text, rule.start);
      // Every saying is kept (oldest first): the rule is one click from each place the human typed it.
      const earlier = rules.get(key)?.sayings ?? candidates.get(key)?.sayings ?? [];
      const fact = { text: rule.text, messageId: message.id, source, sayings: [...earlier, source] };
      // A rule said once with certainty is graded wherever else it is said; it moves to its newest saying.
      const gradedBefore = rules.delete(key);
      candidates.delete(key);
      if (rule.confidence.graded || gradedBefore) rules.set(key, fact);
      else candidates.set(key, { ...fact, why: rule.confidence.why });
    }
  }
  // Words alone do not make a standing rule: on sessions labelled blind, rules read from their words were
  // mostly a one-off request to a careful reviewer (docs/blind-set.md, rounds 3 and 4). A rule the human
  // typed again in another message, or declared as one ("Rules: …", a "Do NOT:" list), is one they keep
  // for later work, and is graded; any other waits for the user to accept it.
  for (const [key, rule] of rules) {
    if (DECLARED_RULE.test(rule.text) || new Set(rule.sayings?.map((saying) => saying.messageId)).size >= GRADED_RULE_SAYINGS) continue;
    rules.delete(key);
    candidates.set(key, { ...rule, why: SAID_ONCE });
  }

  const allAnchors = anchorsOf(branch, calls, (call: ToolCallBlock) => commandOf(call), {
    ids: options.sessionIds,
    humanText: (message) =>
      humanSpans(message, options.format)
        .map((s) => s.text)
        .join("\n\n"),
  });

  const facts: Facts = {
    modifiedFiles: modified,
    readFiles: read.filter((p) => !modified.includes(p)),
    fileSources,
    lastRun,
    anchors: allAnchors.filter((a) => a.why === undefined),
    anchorCandidates: allAnchors.filter((a): a is Anchor & { why: string } => a.why !== undefined),
    rules: [...rules.values()],
    ruleCandidates: inBranchOrder([...candidates.values()], branch),
    latestRequest,
  };
  const failure = unresolvedFailure(runs);
  if (failure?.errorLine) {
    const result = branch.find((m) => m.id === failure.messageId);
    facts.unresolvedError = {
      text: failure.errorLine,
      command: failure.command,
      messageId: failure.messageId,
      source: result ? sourceIn(result, failure.errorLine) : { messageId: failure.messageId, quote: failure.errorLine },
    };
  }
  const openFailures = errorCandidates(branch, runs, outcomes, facts.unresolvedError);
  if (openFailures.length > 0) facts.errorCandidates = openFailures;
  if (options.memory !== undefined) facts.memory = parseMemory(options.memory);
  return facts;
}

/** Facts in the order of their newest saying along the branch (the order the key lists them in). */
function inBranchOrder<T extends { messageId: string; source: FactSource }>(facts: T[], branch: readonly Message[]): T[] {
  const at = new Map(branch.map((message, index) => [message.id, index]));
  const key = (fact: T) => (at.get(fact.messageId) ?? 0) * 1e7 + (fact.source.span?.[0] ?? 0);
  return facts.sort((a, b) => key(a) - key(b));
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

/**
 * The paths the subagents started by calls on the branch wrote (FactOptions.delegated), in order,
 * leaving out writes whose own result says they failed.
 */
function delegatedWrites(delegated: readonly Message[] | undefined, branchCalls: ReadonlyMap<string, ToolCallBlock>): { callId: string; path: string; line?: number }[] {
  if (!delegated || delegated.length === 0) return [];
  const mine = delegated.filter((message) => typeof message.meta.delegatedBy === "string" && branchCalls.has(message.meta.delegatedBy));
  const calls = toolCallsById(mine);
  const failed = new Set<string>();
  for (const message of mine) {
    if (message.role !== "toolResult") continue;
    const outcome = toolOutcome(message, calls);
    if (outcome.callId && outcome.isError === true) failed.add(outcome.callId);
  }
  const out: { callId: string; path: string; line?: number }[] = [];
  for (const message of mine) {
    for (const block of message.blocks) {
      if (block.type !== "toolCall" || failed.has(block.id)) continue;
      for (const path of modifiedPathsOf(block)) out.push({ callId: message.meta.delegatedBy as string, path, line: message.line });
    }
  }
  return out;
}

/** The branch message holding each tool call, by the call's id. */
function callerMessages(branch: readonly Message[]): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const message of branch) for (const block of message.blocks) if (block.type === "toolCall") out.set(block.id, message);
  return out;
}
