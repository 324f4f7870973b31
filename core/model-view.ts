/**
 * The model's view: a context (a branch, a checkpoint's active view, a
 * recorded before/after) rendered as the model receives it, one list of
 * categorised segments per message. Every token count and composition the
 * product shows is computed from this one function (core/tokens.ts,
 * core/composition.ts), so the app, the CLI and the report agree.
 *
 * In: message text, tool calls with their arguments, tool results, omission
 * markers as the text the model reads, summaries, thinking. Out: harness
 * metadata (`meta`: Claude Code's toolUseResult, usage, ids, timestamps, Pi's
 * details, Codex event fields), which the model never receives. Opaque
 * content (encrypted reasoning, images) is carried by its size only, labelled,
 * and never tokenized.
 */
import type { Block, FormatName, Message } from "./model.ts";

export type ViewCategory = "userProse" | "assistantProse" | "toolCalls" | "toolOutput" | "thinking" | "markers" | "summaries" | "instructions" | "images" | "other";

export const CATEGORY_LABELS: Record<ViewCategory, string> = {
  userProse: "user prose",
  assistantProse: "assistant prose",
  toolCalls: "tool calls",
  toolOutput: "tool output",
  thinking: "thinking",
  markers: "omission markers",
  summaries: "summaries",
  instructions: "instructions (system, developer, injected)",
  images: "images",
  other: "other content",
};

export interface OpaqueContent {
  /** Size of the content in bytes (decoded size for base64 images). */
  bytes: number;
  /** What it is, e.g. "encrypted reasoning", "image/png". */
  label: string;
}

export interface ViewSegment {
  category: ViewCategory;
  /** The text the model reads; "" for opaque content. */
  text: string;
  /** Content the model receives but we cannot read (encrypted, binary): counted by size only. */
  opaque?: OpaqueContent;
}

export interface ModelViewMessage {
  messageId: string;
  /** Empty when the message never reaches the model (e.g. Pi's `!!` bash runs). */
  segments: ViewSegment[];
}

/** One function for every context: messages → what the model reads, per message. */
export function modelView(messages: readonly Message[], format: FormatName): ModelViewMessage[] {
  return messages.map((message) => ({ messageId: message.id, segments: messageSegments(message, format) }));
}

/** The text the model reads in place of a payload moved out behind a marker. */
export function omissionMarkerText(block: Extract<Block, { type: "omitted" }>): string {
  return `[moved out: ${block.label} · recover ${block.recoveryId}]`;
}

// Pi wraps summaries before sending them (convertToLlm in @mariozechner/pi-coding-agent, core/messages.js).
const PI_COMPACTION_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const PI_COMPACTION_SUFFIX = "\n</summary>";
const PI_BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const PI_BRANCH_SUFFIX = "</summary>";

/** The segments of one message as the model receives it (exported for the per-message token cache). */
export function messageSegments(message: Message, format: FormatName): ViewSegment[] {
  if (format === "pi" && message.role === "bash") return piBashSegments(message);
  if (format === "pi" && message.role === "summary") return piSummarySegments(message);
  // Aider's console lines (its questions, "Applied edit to …", token counts) are printed, never sent.
  if (format === "aider" && message.meta.aiderConsole === true) return [];
  const textCategory = TEXT_CATEGORY[message.role];
  const out: ViewSegment[] = [];
  for (const block of message.blocks) {
    const segment = blockSegment(block, textCategory, format);
    if (segment) out.push(segment);
  }
  return out;
}

const TEXT_CATEGORY: Record<Message["role"], ViewCategory> = {
  user: "userProse",
  assistant: "assistantProse",
  toolResult: "toolOutput",
  bash: "toolOutput",
  system: "instructions",
  // Pi custom_message and other harness-injected messages reach the model as user turns the user did not write.
  custom: "instructions",
  summary: "summaries",
};

function blockSegment(block: Block, textCategory: ViewCategory, format: FormatName): ViewSegment | null {
  switch (block.type) {
    case "text":
      return { category: textCategory, text: block.text };
    case "thinking":
      return thinkingSegment(block);
    case "toolCall":
      return { category: "toolCalls", text: `${block.name} ${argumentsText(block)}` };
    case "omitted":
      return { category: "markers", text: omissionMarkerText(block) };
    case "image":
      return { category: "images", text: "", opaque: { bytes: Math.floor((block.data.length * 3) / 4), label: block.mimeType } };
    case "raw":
      return rawSegment(block.value, textCategory, format);
  }
}

function thinkingSegment(block: Extract<Block, { type: "thinking" }>): ViewSegment {
  const extra = block.extra ?? {};
  // Codex reasoning items travel back to the model encrypted; the summary text is only what the user was shown.
  if (typeof extra.encrypted_content === "string" && extra.encrypted_content !== "") {
    return { category: "thinking", text: block.text, opaque: { bytes: extra.encrypted_content.length, label: "encrypted reasoning" } };
  }
  // Pi marks thinking the provider redacted; its signature carries the encrypted reasoning.
  if (extra.redacted === true && typeof extra.thinkingSignature === "string") {
    return { category: "thinking", text: "", opaque: { bytes: extra.thinkingSignature.length, label: "redacted reasoning" } };
  }
  return { category: "thinking", text: block.text };
}

/** Arguments as the model produced them: Codex's exact JSON string when there is one. */
function argumentsText(block: Extract<Block, { type: "toolCall" }>): string {
  const exact = block.extra?.argumentsJson;
  if (typeof exact === "string") return exact;
  if (typeof block.arguments === "string") return block.arguments;
  return JSON.stringify(block.arguments) ?? "";
}

/** Codex response items the model never receives (Codex filters them from the prompt). */
const CODEX_NOT_SENT = new Set(["ghost_snapshot"]);

function rawSegment(value: unknown, textCategory: ViewCategory, format: FormatName): ViewSegment | null {
  if (isObject(value)) {
    if (format === "codex" && typeof value.type === "string" && CODEX_NOT_SENT.has(value.type)) return null;
    // Anthropic redacted_thinking, Codex remote-compaction items: encrypted, shown by size.
    if (value.type === "redacted_thinking" && typeof value.data === "string") {
      return { category: "thinking", text: "", opaque: { bytes: value.data.length, label: "redacted reasoning" } };
    }
    if (typeof value.encrypted_content === "string") {
      const label = value.type === "reasoning" ? "encrypted reasoning" : `encrypted ${typeof value.type === "string" ? value.type : "content"}`;
      return { category: value.type === "reasoning" ? "thinking" : "summaries", text: "", opaque: { bytes: value.encrypted_content.length, label } };
    }
  }
  // Unknown content travels to the model as the provider serializes it; JSON is the closest we can say.
  return { category: textCategory === "toolOutput" ? "toolOutput" : "other", text: typeof value === "string" ? value : (JSON.stringify(value) ?? "") };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Pi sends a bash run as a user message (bashExecutionToText); `!!` runs are excluded from context. */
function piBashSegments(message: Message): ViewSegment[] {
  const meta = message.meta;
  if (meta.excludeFromContext === true) return [];
  const out: ViewSegment[] = [{ category: "toolCalls", text: `Ran \`${String(meta.command ?? "")}\`\n` }];
  const body: ViewSegment[] = [];
  for (const block of message.blocks) {
    const segment = blockSegment(block, "toolOutput", "pi");
    if (segment) body.push(segment);
  }
  const hasOutput = body.some((s) => s.text !== "" || s.opaque);
  if (hasOutput) {
    out.push({ category: "toolOutput", text: "```\n" }, ...body, { category: "toolOutput", text: "\n```" });
  } else {
    out.push({ category: "toolOutput", text: "(no output)" });
  }
  let suffix = "";
  if (meta.cancelled === true) suffix += "\n\n(command cancelled)";
  else if (typeof meta.exitCode === "number" && meta.exitCode !== 0) suffix += `\n\nCommand exited with code ${meta.exitCode}`;
  if (meta.truncated === true && typeof meta.fullOutputPath === "string") suffix += `\n\n[Output truncated. Full output: ${meta.fullOutputPath}]`;
  if (suffix) out.push({ category: "toolOutput", text: suffix });
  return out;
}

function piSummarySegments(message: Message): ViewSegment[] {
  const branch = message.meta.type === "branch_summary";
  const segments: ViewSegment[] = [{ category: "summaries", text: branch ? PI_BRANCH_PREFIX : PI_COMPACTION_PREFIX }];
  for (const block of message.blocks) {
    const segment = blockSegment(block, "summaries", "pi");
    if (segment) segments.push(segment);
  }
  segments.push({ category: "summaries", text: branch ? PI_BRANCH_SUFFIX : PI_COMPACTION_SUFFIX });
  return segments;
}

/** The view's text for one message (tests, debugging): segments in order, opaque content as a label. */
export function viewText(segments: readonly ViewSegment[]): string {
  return segments.map((s) => (s.opaque ? `${s.text}[${s.opaque.label}, ${s.opaque.bytes} bytes]` : s.text)).join("");
}
