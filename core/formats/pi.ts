/**
 * Pi coding agent sessions (JSONL, versions 1–3). Line 1 is the header; every
 * other line is a tree node. v1 has no ids: we mint stable ones from line
 * numbers (Pi itself invents random ones when it migrates). The recorded
 * context and compactions follow Pi's `buildSessionContext` (core/compactions/pi.ts).
 */
import type { Block, Entry, Message } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { extraFields, isRecord, textOrThinkingBlock, without, withExtra, type ReaderOutput } from "./common.ts";
import { piCompactionHistory } from "../compactions/pi.ts";
import type { CompactionHistory } from "../compactions/common.ts";
import { PiUsageFold, piUsage } from "../usage/pi.ts";

export function looksLikePi(first: unknown): boolean {
  return isRecord(first) && first.type === "session" && typeof first.id === "string";
}

export function readPi(records: JsonLine[], strict: boolean): ReaderOutput {
  const first = records[0];
  if (!first) throw new SessionError(1, PI_HEADER_NEEDED);
  const reader = new PiReader(first, strict);
  for (let i = 1; i < records.length; i++) reader.add(records[i]!);
  return reader.finish();
}

const PI_HEADER_NEEDED = 'a Pi session starts with a {"type":"session"} header';

/**
 * The Pi reader fed one record at a time as lines are parsed, so that a
 * record is turned into its entry and dropped while still young: on a large
 * file the parsed records then never reach the old generation (only the
 * entries do), which measured the larger part of loading time.
 */
export class PiReader {
  private readonly warnings: ReaderOutput["warnings"] = [];
  private readonly toolCallIds = new Set<string>();
  private readonly entries: Entry[] = [];
  private readonly header: Record<string, unknown>;
  private readonly version: number;
  private readonly linear: boolean;
  private previousId: string | null = null;
  /** v1 compactions point at an index into the whole record list (header included). */
  private readonly idAtIndex: (string | undefined)[] = [undefined];

  /**
   * `mapEntry`: what to keep of each entry made (null: nothing). The CLI's
   * streamed compaction keeps only an outline of each entry on its first
   * read (core/outline.ts) and takes the entries one by one on its second.
   */
  constructor(
    first: JsonLine,
    private readonly strict: boolean,
    private readonly mapEntry?: (entry: Entry) => Entry | null,
  ) {
    if (!looksLikePi(first.value)) throw new SessionError(first.line, PI_HEADER_NEEDED);
    this.header = first.value as Record<string, unknown>;
    this.version = typeof this.header.version === "number" ? this.header.version : 1;
    this.linear = this.version < 2;
  }

  add({ line, value }: JsonLine): void {
    const { strict, warnings, idAtIndex } = this;
    if (!isRecord(value) || typeof value.type !== "string") {
      if (strict) throw new SessionError(line, 'a Pi entry must be an object with a "type"');
      warnings.push({ line, message: 'not a Pi entry (no "type"); skipped' });
      idAtIndex.push(undefined);
      return;
    }
    if (value.type === "session") {
      warnings.push({ line, message: "a second session header; ignored" });
      idAtIndex.push(undefined);
      return;
    }
    let id: string;
    let parentId: string | null;
    if (this.linear) {
      id = `L${line}`;
      parentId = this.previousId;
    } else {
      if (typeof value.id !== "string" || value.id === "") {
        if (strict) throw new SessionError(line, 'entry has no "id"');
        warnings.push({ line, message: 'entry has no "id"; given one from its line number' });
        id = `L${line}`;
      } else id = value.id;
      parentId = typeof value.parentId === "string" ? value.parentId : null;
    }
    this.previousId = id;
    idAtIndex.push(id);
    const entry = piEntry(value, id, parentId, line, this.toolCallIds);
    const kept = this.mapEntry ? this.mapEntry(entry) : entry;
    if (kept) this.entries.push(kept);
  }

  finish(): ReaderOutput {
    const { entries } = this;
    if (this.linear) {
      // Resolve v1 firstKeptEntryIndex into our minted ids, as Pi's migration does.
      for (const entry of entries) {
        const compaction = entry.messages[0];
        if (entry.type !== "compaction" || !compaction) continue;
        const index = compaction.meta.firstKeptEntryIndex;
        if (typeof index === "number") {
          const target = this.idAtIndex[index];
          if (target) compactionTargets.set(entry, target);
        }
      }
    }
    // One history per path, for both its recorded context and its compactions (a session keeps one path per leaf).
    const histories = new WeakMap<readonly Entry[], CompactionHistory>();
    const historyOf = (path: Entry[]): CompactionHistory => {
      let history = histories.get(path);
      if (!history) histories.set(path, (history = piCompactionHistory(path, firstKeptId)));
      return history;
    };
    return {
      format: "pi",
      formatVersion: String(this.version),
      header: this.header,
      entries,
      warnings: this.warnings,
      toolCallIds: this.toolCallIds,
      offTreeRecords: {},
      defaultLeafId: entries.length > 0 ? entries[entries.length - 1]!.id : null,
      recorded: (path) => historyOf(path).recorded,
      compactions: (path) => historyOf(path).compactions,
      usage: piUsage,
      usageFold: () => new PiUsageFold(),
    };
  }
}

/** v1 compaction entry → the id of its first kept entry (v2+ store it directly). */
const compactionTargets = new WeakMap<Entry, string>();

function firstKeptId(entry: Entry): string | undefined {
  const fromIndex = compactionTargets.get(entry);
  if (fromIndex) return fromIndex;
  const id = entry.messages[0]?.meta.firstKeptEntryId;
  return typeof id === "string" ? id : undefined;
}

function piEntry(record: Record<string, unknown>, id: string, parentId: string | null, line: number, toolCallIds: Set<string>): Entry {
  const type = record.type as string;
  const entry: Entry = { id, parentId, line, type, messages: [] };
  switch (type) {
    case "message":
      if (isRecord(record.message)) entry.messages.push(piMessage(record.message, id, line, toolCallIds));
      else entry.messages.push({ id, role: "custom", meta: without(record, "message"), blocks: [{ type: "raw", value: record.message }], line });
      break;
    case "custom_message":
      entry.messages.push({ id, role: "custom", meta: without(record, "content"), blocks: piContent(record.content, toolCallIds), line });
      break;
    case "branch_summary":
    case "compaction":
      entry.messages.push({
        id,
        role: "summary",
        meta: without(record, "summary"),
        blocks: typeof record.summary === "string" ? [{ type: "text", text: record.summary }] : [{ type: "raw", value: record.summary }],
        line,
      });
      break;
    default:
      // label, session_info, model_change, custom, and types newer than us: tree nodes the model never sees.
      entry.data = record;
  }
  return entry;
}

function piMessage(message: Record<string, unknown>, id: string, line: number, toolCallIds: Set<string>): Message {
  switch (message.role) {
    case "user":
    case "assistant":
    case "toolResult":
      return { id, role: message.role, meta: without(message, "content"), blocks: piContent(message.content, toolCallIds), line };
    case "bashExecution":
      // The output is this message's content; command, exit code and flags are metadata.
      return {
        id,
        role: "bash",
        meta: without(message, "output"),
        blocks: typeof message.output === "string" ? [{ type: "text", text: message.output }] : [],
        line,
      };
    case "system":
    case "developer": // newer Pi releases: instructions from the harness, sent as a system turn
      return { id, role: "system", meta: without(message, "content"), blocks: piContent(message.content, toolCallIds), line };
    default:
      // custom, hookMessage (v2's name for custom), and roles newer than us.
      return { id, role: "custom", meta: without(message, "content"), blocks: piContent(message.content, toolCallIds), line };
  }
}

function piContent(content: unknown, toolCallIds: Set<string>): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return content === undefined ? [] : [{ type: "raw", value: content }];
  return content.map((block): Block => {
    if (!isRecord(block)) return { type: "raw", value: block };
    const plain = textOrThinkingBlock(block);
    if (plain) return plain;
    switch (block.type) {
      case "toolCall":
        if (typeof block.id === "string" && typeof block.name === "string") {
          toolCallIds.add(block.id);
          return withExtra({ type: "toolCall", id: block.id, name: block.name, arguments: block.arguments }, extraFields(block, ["id", "name", "arguments"]));
        }
        break;
      case "image":
        if (typeof block.data === "string" && typeof block.mimeType === "string")
          return withExtra({ type: "image", mimeType: block.mimeType, data: block.data }, extraFields(block, ["data", "mimeType"]));
        break;
    }
    return { type: "raw", value: block };
  });
}
