/**
 * A Cline / Roo Code / Kilo Code UI log read alone: `ui_messages.json`
 * (`[{ts, type: "say"|"ask", say|ask, text, …}]`, FORMATS.md), when it is
 * all there is of a task (a repository that committed it without the
 * task's api_conversation_history.json). It is the conversation as the
 * extension showed it, which is not what the model was sent, and the
 * session says so in a warning:
 * - the human's words are the task (`say: "task"`) and each reply
 *   (`user_feedback`); the assistant's are its text, reasoning, questions
 *   (`followup`, JSON `{question, options}`), plan responses and
 *   completion results;
 * - a tool use is the record asking to run it or saying it ran (`tool`:
 *   JSON `{tool, path, diff|content…}`, named by its UI kind, e.g.
 *   `editedExistingFile`; `command`, named `execute_command` as the one
 *   tool that shows one; MCP and browser actions); a result is only what
 *   the UI showed (command output, an MCP response, a browser result):
 *   file tools' results are not in the log;
 * - usage is `api_req_started`'s JSON (as beside a history), each request's
 *   belonging to the reply after it, and the working directory the one its
 *   request text names;
 * - Cline's truncations (`conversationHistoryDeletedRange`) and condenses
 *   index the history this file lacks: counted in the warning, not audited.
 *
 * Records carry no id but their `ts`: a message's id is its `ts` (with
 * `#n` on a repeat), its line the record's position in the array.
 */
import type { Block, Entry, Message, Role, UsageSeries } from "../model.ts";
import { SessionError } from "../model.ts";
import { clineUsage, deletedRangeChanges, lastWorkingDirectory } from "./cline.ts";
import { countOffTree, isRecord, without, type ReaderOutput } from "./common.ts";

/** Every item `{ts: number, type: "say"|"ask"}`: what Cline's ClineMessage requires. */
export function looksLikeClineUiLog(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((m) => isRecord(m) && typeof m.ts === "number" && (m.type === "say" || m.type === "ask"));
}

/** Records that are not messages: request bookkeeping, checkpoints, notices, resumptions. Counted, by kind. */
const NOT_MESSAGES = new Set([
  "api_req_started",
  "api_req_finished",
  "api_req_retried",
  "deleted_api_reqs",
  "checkpoint_created",
  "shell_integration_warning",
  "shell_integration_warning_with_suggestion",
  "info",
  "task_progress",
  "hook_status",
  "hook_output_stream",
  "load_mcp_documentation",
  "mcp_notification",
  "mcp_server_request_started",
  "resume_task",
  "resume_completed_task",
  "auto_approval_max_req_reached",
  "generate_explanation",
  "conditional_rules_applied",
  "subagent_usage",
  "report_bug",
]);
/** What the extension reports went wrong (shown to the user, not the model's words). */
const ERRORS = new Set(["error", "error_retry", "diff_error", "clineignore_error", "command_permission_denied", "api_req_failed", "mistake_limit_reached"]);
const CONDENSES = new Set(["condense", "summarize_task"]);

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `data:image/png;base64,…` as an image block; anything else travels raw. */
function imageBlock(image: unknown): Block {
  const match = typeof image === "string" ? /^data:([\w/+.-]+);base64,(.*)$/s.exec(image) : null;
  return match ? { type: "image", mimeType: match[1]!, data: match[2]! } : { type: "raw", value: image };
}

export function readClineUiLog(value: unknown, strict: boolean): ReaderOutput {
  if (!looksLikeClineUiLog(value)) throw new SessionError(1, "ui_messages.json must be an array of {ts, type: say|ask} records");
  const ui = value;
  const warnings: ReaderOutput["warnings"] = [];
  const offTreeRecords: Record<string, number> = {};
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  const seenIds = new Map<string, number>();
  let previousId: string | null = null;
  /** The latest call of each kind whose result the UI shows after it. */
  const open: { command?: string; mcp?: string; browser?: string } = {};
  let condenses = 0;

  ui.forEach((record, index) => {
    const line = index + 1;
    const kind = String(record.type === "say" ? record.say : record.ask);
    const text = typeof record.text === "string" ? record.text : "";
    const base = String(record.ts);
    const repeat = seenIds.get(base) ?? 0;
    seenIds.set(base, repeat + 1);
    const id = repeat === 0 ? base : `${base}#${repeat}`;
    const meta = without(record, "text", "images", "reasoning");
    const message = (role: Role, blocks: Block[]): Message => ({ id, role, meta, blocks, line });
    const call = (name: string, args: unknown): Message => {
      toolCallIds.add(id);
      return message("assistant", [{ type: "toolCall", id, name, arguments: args }]);
    };
    const result = (callId: string | undefined, blocks: Block[]): Message => ({
      id,
      role: "toolResult",
      meta: { ...meta, ...(callId ? { toolCallId: callId } : {}) },
      blocks,
      line,
    });
    const thinking: Block[] = typeof record.reasoning === "string" && record.reasoning !== "" ? [{ type: "thinking", text: record.reasoning }] : [];
    const images = Array.isArray(record.images) ? record.images.map(imageBlock) : [];

    let made: Message | null = null;
    if (kind === "task" || kind === "user_feedback") made = message("user", [...(text ? [{ type: "text", text } as Block] : []), ...images]);
    else if (kind === "user_feedback_diff") made = message("user", [{ type: "raw", value: parsedJson(text) ?? text }]);
    else if (kind === "text" || kind === "completion_result" || kind === "new_task") {
      if (text || thinking.length > 0) made = message("assistant", [...thinking, ...(text ? [{ type: "text", text } as Block] : [])]);
    } else if (kind === "reasoning") made = message("assistant", [{ type: "thinking", text }]);
    else if (kind === "followup" || kind === "plan_mode_respond" || kind === "act_mode_respond") {
      const asked = parsedJson(text);
      const words = isRecord(asked) ? [asked.question ?? asked.response, ...(Array.isArray(asked.options) ? asked.options.map((o) => `- ${String(o)}`) : [])] : [text];
      made = message("assistant", [...thinking, { type: "text", text: words.filter((w) => typeof w === "string" && w !== "").join("\n") }]);
    } else if (kind === "tool") {
      const tool = parsedJson(text);
      made = isRecord(tool) && typeof tool.tool === "string" ? call(tool.tool, without(tool, "tool")) : message("custom", [{ type: "raw", value: tool ?? text }]);
    } else if (kind === "command") {
      made = call("execute_command", { command: text });
      open.command = id;
    } else if (kind === "command_output") made = result(open.command, [{ type: "text", text }]);
    else if (kind === "use_mcp_server") {
      const request = parsedJson(text);
      made = call(isRecord(request) && typeof request.type === "string" ? request.type : "use_mcp_tool", request ?? text);
      open.mcp = id;
    } else if (kind === "mcp_server_response") made = result(open.mcp, [{ type: "text", text }]);
    else if (kind === "browser_action_launch" || kind === "browser_action") {
      made = call("browser_action", kind === "browser_action_launch" ? { action: "launch", url: text } : (parsedJson(text) ?? text));
      open.browser = id;
    } else if (kind === "browser_action_result") made = result(open.browser, [{ type: "raw", value: parsedJson(text) ?? text }]);
    else if (kind === "use_subagents" || kind === "subagent") made = call(kind, parsedJson(text) ?? text);
    else if (ERRORS.has(kind)) made = message("custom", [{ type: "text", text: text || kind }]);
    else if (CONDENSES.has(kind)) {
      condenses++;
      made = message("assistant", [{ type: "text", text }]);
    } else if (NOT_MESSAGES.has(kind)) countOffTree(offTreeRecords, kind);
    else {
      if (strict) throw new SessionError(line, `unknown Cline UI record "${kind}"`);
      countOffTree(offTreeRecords, kind);
    }
    if (!made) return;
    entries.push({ id, parentId: previousId, line, type: "message", messages: [made] });
    previousId = id;
  });

  const truncations = deletedRangeChanges(ui);
  const unaudited = [truncations > 0 ? `${truncations} truncation(s)` : "", condenses > 0 ? `${condenses} condense(s)` : ""].filter(Boolean).join(" and ");
  warnings.push({
    line: 0,
    message:
      "ui_messages.json alone: the conversation as the Cline UI showed it, not what the model was sent (the task's api_conversation_history.json is not here); " +
      "tool results are only those the UI shows (command output, MCP and browser results)" +
      (unaudited ? `; the ${unaudited} it records index that history, so they are counted, not audited` : ""),
  });
  const requests = ui.flatMap((record) => {
    if (record.say !== "api_req_started" || typeof record.text !== "string") return [];
    const info = parsedJson(record.text);
    return isRecord(info) && typeof info.request === "string" ? [info.request] : [];
  });
  return {
    format: "cline",
    header: { cwd: lastWorkingDirectory(requests), uiMessages: ui.length, uiLogOnly: true },
    entries,
    warnings,
    toolCallIds,
    offTreeRecords,
    defaultLeafId: previousId,
    recorded: (path) => ({ messages: path.flatMap((entry) => entry.messages), compactions: 0, droppedMessageIds: [] }),
    usage: () => withReplies(clineUsage(ui), entries),
  };
}

/**
 * Each request's usage belongs to the reply that follows its `api_req_started` record: the first
 * message after it, so the model's view of that turn is everything before that reply.
 */
function withReplies(series: UsageSeries, entries: readonly Entry[]): UsageSeries {
  let next = 0;
  const turns = series.turns.map((turn) => {
    while (next < entries.length && entries[next]!.line <= turn.line) next++;
    return next < entries.length ? { ...turn, messageId: entries[next]!.messages[0]!.id } : turn;
  });
  return { ...series, turns };
}
