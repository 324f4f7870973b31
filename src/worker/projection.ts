/**
 * Message → what the panes draw: small row projections, per-row geometry and
 * full display blocks with a size gate. Runs in the worker only.
 */
import type { Block, Message } from "../../core/model.ts";
import { oneLine } from "../../core/text.ts";
import { resultCallId, toolOutcome } from "../../core/tool-info.ts";
import type { ToolCallBlock } from "../../core/model.ts";
import { HEADER_HEIGHT, MAX_PREVIEW_LINES, MAX_ROW_BLOCKS, MORE_BLOCKS_LINE, ROW_PADDING, blockHeight } from "../layout/rows.ts";
import { FLAG_DIFFERS, FLAG_HAS_OMISSION, ROLE_CODES, type DisplayBlock, type PaneGeometry, type RowBlockView, type RowProjection } from "./protocol.ts";

const PREVIEW_CHARS = 320;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * Text as the panes show it: terminal escape sequences (colours, cursor moves) removed, and
 * legacy Codex output that stored its line breaks as a literal backslash-n shown with line breaks.
 * For display only: the stored payload, its hash and every figure keep the text as read.
 */
export function displayText(text: string): string {
  let out = text.includes("\u001b") ? text.replace(ANSI, "") : text;
  if (!out.includes("\n") && out.includes("\\n")) out = out.replace(/\\r\\n|\\n/g, "\n").replace(/\\t/g, "\t");
  return out;
}
const APPROX_CHARS_PER_LINE = 110;
/** Past this, full text is sent only when the user asks ("show all"). */
export const DISPLAY_GATE = 50_000;

export interface PaneModel {
  messages: readonly Message[];
  /** Index of each message id in this pane. */
  indexById: Map<string, number>;
  /** Row of each tool call id's call and result in this pane. */
  callRow: Map<string, number>;
  resultRow: Map<string, number>;
  calls: Map<string, ToolCallBlock>;
  /** No id stands for two rows (no message id, no tool call id): a later model may go on from this one's maps (pane-growth.ts). */
  distinctIds: boolean;
  /** Each row's height, role and omission flag, measured once for the model (rowShapes). */
  shapes?: RowShapes;
  /**
   * Set by grownPaneModel: how many leading rows are the model's it grew from, the same messages,
   * and that model's shapes, so that the geometry measures only the rows after them.
   */
  grownFrom?: { kept: number; shapes: RowShapes | undefined };
}

/** What the geometry needs of each row that the row alone decides (not its alignment). */
export interface RowShapes {
  heights: Uint16Array;
  roles: Uint8Array;
  /** FLAG_HAS_OMISSION where a row holds a marker. */
  flags: Uint8Array;
}

export function buildPaneModel(messages: readonly Message[]): PaneModel {
  const model: PaneModel = { messages, indexById: new Map(), callRow: new Map(), resultRow: new Map(), calls: new Map(), distinctIds: true };
  indexRows(model, 0);
  return model;
}

/**
 * Adds rows `from` onwards of `model.messages` to its maps: a message id and a call id name their
 * last row, a call's result its first (a call answered twice is drawn against the first answer).
 */
export function indexRows(model: PaneModel, from: number): void {
  const { messages, indexById, callRow, resultRow, calls } = model;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    if (indexById.has(message.id)) model.distinctIds = false;
    indexById.set(message.id, index);
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      if (callRow.has(block.id)) model.distinctIds = false;
      callRow.set(block.id, index);
      calls.set(block.id, block);
    }
  }
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== "toolResult") continue;
    const callId = resultCallId(message);
    if (callId && !resultRow.has(callId)) resultRow.set(callId, index);
  }
}

/** A row a pane's map names, or -1 when it names none of this pane's rows (see pane-growth.ts: a later model may share the maps). */
export function rowIn(pane: PaneModel, rows: ReadonlyMap<string, number>, key: string): number {
  const row = rows.get(key);
  return row !== undefined && row < pane.messages.length ? row : -1;
}

function previewOf(source: string): { preview: string; lines: number; cut: boolean } {
  // Only the head is transformed: a row never shows more, and a megabyte of output costs no more than a line.
  const head = source.length > PREVIEW_CHARS * 4 ? source.slice(0, PREVIEW_CHARS * 4) : source;
  // Blank lines before the first word (Claude Code often starts a text block with "\n\n") would take the
  // preview's few lines; the detail and "… more" show the text as written.
  const text = displayText(head).replace(/^(?:[ \t]*\r?\n)+/, "");
  const cut = text.length > PREVIEW_CHARS || head.length < source.length;
  const preview = cut ? text.slice(0, PREVIEW_CHARS) + "…" : text;
  return { preview, lines: previewLines(preview), cut };
}

/** Display lines of a text preview: newlines and wrapping at about APPROX_CHARS_PER_LINE, at most MAX_PREVIEW_LINES. */
function previewLines(preview: string): number {
  let lines = 1;
  let column = 0;
  for (let i = 0; i < preview.length && lines <= MAX_PREVIEW_LINES; i++) {
    if (preview.charCodeAt(i) === 10) {
      lines++;
      column = 0;
    } else if (++column > APPROX_CHARS_PER_LINE) {
      lines++;
      column = 0;
    }
  }
  return Math.min(MAX_PREVIEW_LINES, lines);
}

/** The height-relevant shape of a block, without building its preview strings. */
function blockShape(block: Block): { type: RowBlockView["type"]; lines: number } {
  if (block.type === "text") return { type: "text", lines: previewOf(block.text).lines };
  return { type: block.type, lines: 1 };
}

/**
 * Row heights by message: a message never changes once read, and the views of one session share most
 * of theirs (a strategy's kept messages are the branch's, a followed file's next look keeps the last
 * one's), so each is measured once.
 */
const rowHeights = new WeakMap<Message, number>();

function rowHeightOf(message: Message): number {
  let height = rowHeights.get(message);
  if (height === undefined) rowHeights.set(message, (height = measureRowHeight(message)));
  return height;
}

/** Gives `to` the height measured for `from`: the same message read again as another object (see carryTokenCounts). */
export function carryRowHeight(from: Message, to: Message): void {
  const height = rowHeights.get(from);
  if (height !== undefined && !rowHeights.has(to)) rowHeights.set(to, height);
}

function measureRowHeight(message: Message): number {
  let height = ROW_PADDING + HEADER_HEIGHT;
  const shown = Math.min(message.blocks.length, MAX_ROW_BLOCKS);
  for (let i = 0; i < shown; i++) height += blockHeight(blockShape(message.blocks[i]!));
  if (message.blocks.length > MAX_ROW_BLOCKS) height += MORE_BLOCKS_LINE;
  return height;
}

/** A one-line block preview (thinking, tool arguments, raw values). */
const ONE_LINE_PREVIEW = 200;

export function stringifyValue(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space) ?? String(value);
  } catch (error) {
    return `(cannot display: ${error instanceof Error ? error.message : error})`;
  }
}

function blockView(block: Block, pane: PaneModel): RowBlockView {
  switch (block.type) {
    case "text": {
      const { preview, lines, cut } = previewOf(block.text);
      return { type: "text", preview, lines, chars: block.text.length, cut };
    }
    case "thinking": {
      const encrypted = block.extra?.encrypted_content;
      const opaqueBytes = typeof encrypted === "string" && encrypted !== "" ? new TextEncoder().encode(encrypted).length : undefined;
      // Sized in UTF-8 bytes like a moved-out payload, so the two panes say the same figure for the same text.
      const bytes = new TextEncoder().encode(block.text).length;
      return { type: "thinking", preview: oneLine(displayText(block.text), ONE_LINE_PREVIEW), lines: 1, chars: block.text.length, bytes, opaqueBytes };
    }
    case "toolCall": {
      const args = stringifyValue(block.arguments);
      return {
        type: "toolCall",
        preview: oneLine(args, ONE_LINE_PREVIEW),
        lines: 1,
        chars: args.length,
        name: block.name,
        callId: block.id,
        resultRow: rowIn(pane, pane.resultRow, block.id),
      };
    }
    case "image":
      return { type: "image", preview: block.mimeType, lines: 1, chars: block.data.length };
    case "raw": {
      const json = stringifyValue(block.value);
      return { type: "raw", preview: oneLine(json, ONE_LINE_PREVIEW), lines: 1, chars: json.length };
    }
    case "omitted":
      return {
        type: "omitted",
        preview: block.label,
        lines: 1,
        chars: 0,
        recoveryId: block.recoveryId,
        sha256: block.sha256,
        bytes: block.bytes,
        kind: block.kind,
        label: block.label,
      };
  }
}

export function projectRow(pane: PaneModel, index: number, sourceRow: number, differs: boolean): RowProjection {
  const message = pane.messages[index]!;
  const shown = message.blocks.slice(0, MAX_ROW_BLOCKS).map((block) => blockView(block, pane));
  let chars = 0;
  for (const block of message.blocks) chars += block.type === "text" || block.type === "thinking" ? block.text.length : 0;
  const row: RowProjection = {
    index,
    id: message.id,
    role: message.role,
    line: message.line,
    chars,
    blocks: shown,
    hiddenBlocks: Math.max(0, message.blocks.length - MAX_ROW_BLOCKS),
    sourceRow,
    differs,
  };
  if (message.role === "toolResult" || message.role === "bash") {
    const outcome = toolOutcome(message, pane.calls);
    row.tool = {
      callId: outcome.callId,
      name: outcome.toolName ?? outcome.command,
      isError: outcome.isError,
      exitCode: outcome.exitCode,
      callRow: outcome.callId ? rowIn(pane, pane.callRow, outcome.callId) : -1,
    };
  }
  return row;
}

export function textSignature(message: Message): string {
  let out = "";
  for (const block of message.blocks) if (block.type === "text") out += block.text + "\u0000";
  return out;
}

/**
 * textSignature(a) !== textSignature(b), without joining the texts where their blocks hold the same
 * strings (a copy that only moved its thinking or tool output out: nearly every row, on every view).
 */
export function textDiffers(a: Message, b: Message): boolean {
  // Walk both messages' text blocks side by side: no array per row (this runs for every copied row of a view).
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.blocks.length && a.blocks[i]!.type !== "text") i++;
    while (j < b.blocks.length && b.blocks[j]!.type !== "text") j++;
    const left = a.blocks[i];
    const right = b.blocks[j];
    if (left === undefined || right === undefined) return left !== right && textSignature(a) !== textSignature(b);
    if (left.type !== "text" || right.type !== "text" || left.text !== right.text) return textSignature(a) !== textSignature(b);
    i++;
    j++;
  }
}

/**
 * Heights, roles and flags of every row, plus the alignment to the other pane.
 * Heights equal baseRowHeight(projectRow(...)) (tested) without building the
 * projections, which matters at 100,000 rows.
 */
export function paneGeometry(pane: PaneModel, differs: Uint8Array | null, aligned: Int32Array): PaneGeometry {
  const shapes = rowShapes(pane);
  const count = pane.messages.length;
  // Copies: the geometry is transferred to the main thread, which detaches its buffers.
  const flags = shapes.flags.slice();
  if (differs) for (let i = 0; i < count; i++) if (differs[i] === 1) flags[i] = flags[i]! | FLAG_DIFFERS;
  return { count, heights: shapes.heights.slice(), roles: shapes.roles.slice(), flags, aligned: aligned.slice() };
}

/**
 * The model's row shapes, measured once; a grown model copies those of the rows it shares with the
 * model it grew from and measures the rest (a followed 100 MB session has 100,000s of rows a look).
 */
export function rowShapes(pane: PaneModel): RowShapes {
  if (pane.shapes && pane.shapes.heights.length === pane.messages.length) return pane.shapes;
  const count = pane.messages.length;
  const shapes: RowShapes = { heights: new Uint16Array(count), roles: new Uint8Array(count), flags: new Uint8Array(count) };
  const from = pane.grownFrom?.shapes ? Math.min(pane.grownFrom.kept, pane.grownFrom.shapes.heights.length, count) : 0;
  if (from > 0) {
    const earlier = pane.grownFrom!.shapes!;
    shapes.heights.set(earlier.heights.subarray(0, from));
    shapes.roles.set(earlier.roles.subarray(0, from));
    shapes.flags.set(earlier.flags.subarray(0, from));
  }
  for (let i = from; i < count; i++) {
    const message = pane.messages[i]!;
    shapes.heights[i] = Math.min(65535, rowHeightOf(message));
    shapes.roles[i] = Math.max(0, ROLE_CODES.indexOf(message.role));
    if (message.blocks.some((b) => b.type === "omitted")) shapes.flags[i] = FLAG_HAS_OMISSION;
  }
  pane.shapes = shapes;
  // The earlier model's shapes are not needed again (and would be held as long as this model).
  if (pane.grownFrom) pane.grownFrom = { kept: pane.grownFrom.kept, shapes: undefined };
  return shapes;
}

export function displayBlocks(blocks: readonly Block[], full: boolean): DisplayBlock[] {
  return blocks.map((block) => displayBlock(block, full));
}

function gate(text: string, full: boolean): Pick<DisplayBlock, "text" | "truncated" | "totalChars"> {
  if (full || text.length <= DISPLAY_GATE) return { text, truncated: false, totalChars: text.length };
  return { text: text.slice(0, DISPLAY_GATE), truncated: true, totalChars: text.length };
}

export function displayBlock(block: Block, full: boolean): DisplayBlock {
  switch (block.type) {
    case "text":
    case "thinking":
      return { type: block.type, ...gate(displayText(block.text), full) };
    case "toolCall":
      return { type: "toolCall", name: block.name, ...gate(stringifyValue(block.arguments, 2), full) };
    case "image": {
      const safeMime = /^image\/(png|jpeg|gif|webp)$/.test(block.mimeType) ? block.mimeType : undefined;
      return {
        type: "image",
        text: `${block.mimeType}, ${block.data.length} base64 characters`,
        truncated: false,
        totalChars: block.data.length,
        mimeType: block.mimeType,
        // Only raster types render; an SVG could carry script, so it stays text.
        imageUrl: safeMime ? `data:${safeMime};base64,${block.data}` : undefined,
      };
    }
    case "raw":
      return { type: "raw", ...gate(stringifyValue(block.value, 2), full) };
    case "omitted":
      return { type: "omitted", text: block.label, truncated: false, totalChars: 0, recoveryId: block.recoveryId, sha256: block.sha256, bytes: block.bytes, label: block.label };
  }
}

/** A payload as read (a block, a block list, or any value) → display blocks. */
export function displayPayload(payload: unknown, full: boolean): DisplayBlock[] {
  const asBlock = (value: unknown): Block | undefined => {
    if (typeof value !== "object" || value === null) return undefined;
    const type = (value as { type?: unknown }).type;
    return ["text", "thinking", "toolCall", "image", "raw"].includes(type as string) ? (value as Block) : undefined;
  };
  if (Array.isArray(payload) && payload.every((item) => asBlock(item))) return displayBlocks(payload as Block[], full);
  const single = asBlock(payload);
  if (single) return [displayBlock(single, full)];
  return [{ type: "raw", ...gate(stringifyValue(payload, 2), full) }];
}
