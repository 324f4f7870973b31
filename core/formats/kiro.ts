/**
 * Kiro CLI (and Amazon Q Developer CLI, whose code it continues) saves a
 * conversation with `/chat save PATH` as one JSON object, its
 * `ConversationState`: `conversation_id`, `history` (entries of
 * `{user, assistant, request_metadata}`: what the model is sent),
 * `valid_history_range` (the part of it still sendable, start inclusive, end
 * exclusive), `transcript` (the conversation as shown, one string per line
 * block, the user's prefixed with "> "), `latest_summary` (`[summary,
 * metadata]`, written by `/compact`), `model_info` (its window) and more.
 *
 * A user entry's content is `{Prompt: {prompt}}`, `{ToolUseResults:
 * {tool_use_results: [{tool_use_id, content: [{Text}|{Json}], status}]}}` or
 * `{CancelledToolUses: {prompt, tool_use_results}}`, its working directory in
 * `env_context.env_state`; an assistant's is `{ToolUse: {message_id,
 * content, tool_uses: [{id, name, args}]}}` or `{Response: {message_id,
 * content}}`.
 *
 * `/compact` drains the history (all of it by default) and keeps the
 * summary, which is sent as context from then on; the drained entries are not
 * written anywhere. What the file still shows of them is the transcript: so a
 * file whose transcript has a `/compact` line is read as the transcript up to
 * that line (the conversation as shown, said so in each message's meta), the
 * compaction there ("kiro-compact", its summary the file's), then the summary
 * and the history. The transcript after that line shows the history again
 * and is not read twice. A summary with no `/compact` line in the transcript
 * (an automatic compaction, or a transcript cut short) cannot be placed: it is
 * the first message of the context, and a warning says what is not known.
 * Ids: `T<n>` for a transcript block (its index), `H<n>u`/`H<n>a` for a
 * history entry's user and assistant messages (results `H<n>u#<k>`); a
 * message's line is its transcript block's index + 1, and for the history
 * the transcript's length + the entry's index + 1, so that file order holds.
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import { SessionError } from "../model.ts";
import { isRecord, without, type ReaderOutput } from "./common.ts";
import { replayedHistory, type ContextItem } from "../compactions/common.ts";

/** The fields Kiro's ConversationState always writes: an id, the history and the transcript. */
export function looksLikeKiroSave(value: unknown): boolean {
  return isRecord(value) && typeof value.conversation_id === "string" && Array.isArray(value.history) && Array.isArray(value.transcript);
}

/** The transcript's line of a typed `/compact` (with its options, if any). */
const COMPACT_LINE = /^> \/compact\b/;

export function readKiro(value: unknown, strict: boolean): ReaderOutput {
  if (!looksLikeKiroSave(value)) throw new SessionError(1, "a Kiro CLI save is an object with conversation_id, history and transcript");
  const save = value as Record<string, unknown> & { history: unknown[]; transcript: unknown[] };
  const warnings: ReaderOutput["warnings"] = [];
  const toolCallIds = new Set<string>();
  const entries: Entry[] = [];
  let previousId: string | null = null;
  const push = (id: string, line: number, messages: Message[], type = "message") => {
    entries.push({ id, parentId: previousId, line, type, messages });
    previousId = id;
  };

  const summary = Array.isArray(save.latest_summary) && typeof save.latest_summary[0] === "string" ? save.latest_summary[0] : null;
  const transcript = save.transcript.map((line) => (typeof line === "string" ? line : ""));
  let compactAt = -1;
  for (let i = transcript.length - 1; i >= 0 && summary !== null; i--) if (COMPACT_LINE.test(transcript[i]!)) ((compactAt = i), (i = -1));
  // The conversation as shown, up to the compaction: all the file keeps of what it drained.
  for (let i = 0; i < compactAt; i++) {
    const text = transcript[i]!;
    if (text.trim() === "") continue;
    const typed = text.startsWith("> ");
    const meta = { kiroTranscript: i };
    push(`T${i}`, i + 1, [{ id: `T${i}`, role: typed ? "user" : "assistant", meta, blocks: [{ type: "text", text: typed ? text.slice(2) : text }], line: i + 1 }]);
  }
  const compactionLine = compactAt >= 0 ? compactAt + 1 : 0;
  let summaryMessage: Message | null = null;
  if (summary !== null) {
    const metadata = (save.latest_summary as unknown[])[1];
    summaryMessage = {
      id: "summary",
      role: "summary",
      meta: { kiroSummary: true, ...(isRecord(metadata) ? { request: metadata } : {}) },
      blocks: [{ type: "text", text: summary }],
      line: compactionLine,
    };
    if (compactAt < 0) {
      warnings.push({
        line: 0,
        message:
          "the file holds the summary of a compaction (latest_summary) whose transcript has no /compact line: an automatic compaction, or a transcript cut short; the history it replaced is not in the file, so it is the context's first message and no compaction is recorded",
      });
    }
    push("summary", compactionLine, [summaryMessage], "compaction");
    if (compactAt >= 0) {
      warnings.push({
        line: compactionLine,
        message:
          "the history /compact replaced is not in the file: the conversation before the compaction is the transcript as Kiro showed it (tool output is not in it), so each of its messages counts as left the context; the history after it, what is sent now, may repeat the transcript's last turns",
      });
    }
  }

  // The history: what the model is sent after the summary.
  const range = Array.isArray(save.valid_history_range) && save.valid_history_range.every((n) => typeof n === "number") ? (save.valid_history_range as number[]) : null;
  let cwd: string | undefined;
  save.history.forEach((raw, index) => {
    const line = transcript.length + index + 1;
    if (!isRecord(raw) || !isRecord(raw.user) || !isRecord(raw.assistant)) {
      if (strict) throw new SessionError(line, `history entry ${index} is not {user, assistant}`);
      warnings.push({ line, message: `history entry ${index} is not {user, assistant}; skipped` });
      return;
    }
    const request = isRecord(raw.request_metadata) ? raw.request_metadata : undefined;
    const state = isRecord(raw.user.env_context) && isRecord(raw.user.env_context.env_state) ? raw.user.env_context.env_state : undefined;
    if (typeof state?.current_working_directory === "string") cwd = state.current_working_directory;
    const meta = { historyIndex: index, ...(request ? { request } : {}), ...(range && (index < range[0]! || index >= range[1]!) ? { outsideValidRange: true } : {}) };
    const messages = [...userMessages(`H${index}u`, raw.user, meta, line), ...assistantMessages(`H${index}a`, raw.assistant, meta, line, toolCallIds)];
    push(`H${index}`, line, messages);
  });
  if (range && (range[0]! > 0 || range[1]! < save.history.length)) {
    warnings.push({
      line: 0,
      message: `valid_history_range is [${range[0]}, ${range[1]}) of ${save.history.length} history entries: the others are not sent (marked outsideValidRange)`,
    });
  }

  const items = (path: Entry[]): ContextItem[] => {
    const out: ContextItem[] = [];
    for (const entry of path) {
      if (entry.type === "compaction" && summaryMessage && compactAt >= 0) {
        const kept = summaryMessage;
        out.push({
          line: entry.line,
          entryId: entry.id,
          kind: "kiro-compact",
          trigger: "manual",
          tokensBefore: null,
          tokensAfter: null,
          summary,
          apply: () => [kept],
        });
        continue;
      }
      for (const message of entry.messages) if (message.meta.outsideValidRange !== true) out.push(message);
    }
    return out;
  };
  const model = isRecord(save.model_info) ? save.model_info : undefined;
  return {
    format: "kiro",
    header: { ...without(save, "history", "transcript", "latest_summary", "tools", "file_line_tracker"), cwd },
    entries,
    warnings,
    toolCallIds,
    offTreeRecords: compactAt >= 0 ? { "transcript after /compact": transcript.length - compactAt } : { transcript: transcript.length },
    defaultLeafId: previousId,
    ...replayedHistory(items),
    usage: (path) => kiroUsage(path, typeof model?.context_window_tokens === "number" ? model.context_window_tokens : null),
  };
}

function textBlocks(text: unknown): Block[] {
  return typeof text === "string" && text !== "" ? [{ type: "text", text }] : [];
}

/** A tool result's content: `{Text: "…"}` as text, `{Json: {…}}` as its JSON. */
function resultBlocks(content: unknown): Block[] {
  if (!Array.isArray(content)) return [];
  return content.map((part): Block => {
    if (isRecord(part) && typeof part.Text === "string") return { type: "text", text: part.Text };
    if (isRecord(part) && "Json" in part) return { type: "text", text: JSON.stringify(part.Json) };
    return { type: "raw", value: part };
  });
}

function userMessages(id: string, user: Record<string, unknown>, meta: Record<string, unknown>, line: number): Message[] {
  const content = isRecord(user.content) ? user.content : {};
  const out: Message[] = [];
  const prompt = isRecord(content.Prompt) ? content.Prompt.prompt : isRecord(content.CancelledToolUses) ? content.CancelledToolUses.prompt : undefined;
  const results = isRecord(content.ToolUseResults)
    ? content.ToolUseResults.tool_use_results
    : isRecord(content.CancelledToolUses)
      ? content.CancelledToolUses.tool_use_results
      : undefined;
  for (const result of Array.isArray(results) ? results : []) {
    if (!isRecord(result)) continue;
    out.push({
      id: `${id}#${out.length}`,
      role: "toolResult",
      meta: { ...meta, toolCallId: result.tool_use_id, status: result.status, isError: result.status === "Error" || isRecord(content.CancelledToolUses) },
      blocks: resultBlocks(result.content),
      line,
    });
  }
  const words = textBlocks(prompt);
  if (words.length > 0) out.push({ id: out.length === 0 ? id : `${id}#${out.length}`, role: "user", meta: { ...meta, ...without(user, "content") }, blocks: words, line });
  return out;
}

function assistantMessages(id: string, assistant: Record<string, unknown>, meta: Record<string, unknown>, line: number, toolCallIds: Set<string>): Message[] {
  const body = isRecord(assistant.ToolUse) ? assistant.ToolUse : isRecord(assistant.Response) ? assistant.Response : undefined;
  if (!body) return [];
  const blocks: Block[] = textBlocks(body.content);
  for (const use of Array.isArray(body.tool_uses) ? body.tool_uses : []) {
    if (!isRecord(use) || typeof use.id !== "string" || typeof use.name !== "string") continue;
    toolCallIds.add(use.id);
    blocks.push({ type: "toolCall", id: use.id, name: use.name, arguments: use.args });
  }
  return blocks.length > 0 ? [{ id, role: "assistant", meta: { ...meta, messageId: body.message_id }, blocks, line }] : [];
}

/** Each request's share of the window, where the file states one: the context it sent. */
function kiroUsage(path: Entry[], window: number | null): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  for (const entry of path) {
    const request = entry.messages[0]?.meta.request;
    if (!isRecord(request) || typeof request.context_usage_percentage !== "number" || window === null) continue;
    const contextTokens = Math.round((request.context_usage_percentage / 100) * window);
    turns.push({ line: entry.line, input: contextTokens, output: 0, cacheRead: 0, cacheWrite: 0, contextTokens });
  }
  return { turns, contextWindow: window, notes: turns.length > 0 ? ["the file states each request's share of the window, not its tokens: context = share × window"] : [] };
}
