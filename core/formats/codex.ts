/**
 * Codex CLI rollouts (JSONL), modern (`{timestamp, type, payload}`) and legacy
 * (2025-08: a header line, then bare response items and state lines). A
 * rollout is linear. The model's context is the response items; event
 * messages only duplicate them for display (kept as entries for the facts).
 * A `compacted` record with replacement_history *is* the context after it.
 */
import type { Entry } from "../model.ts";
import type { JsonLine } from "../jsonl.ts";
import { SessionError } from "../model.ts";
import { countOffTree, isRecord, without, type ReaderOutput } from "./common.ts";
import { responseItemMessages } from "./codex-items.ts";
import { codexCompactionHistory } from "../compactions/codex.ts";
import { codexUsage } from "../usage/codex.ts";

const MODERN_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

export function looksLikeCodex(records: JsonLine[]): boolean {
  return records.slice(0, 20).some(({ value }) => {
    if (!isRecord(value)) return false;
    if (typeof value.type === "string" && MODERN_TYPES.has(value.type) && "payload" in value) return true;
    if (value.record_type === "state") return true;
    return typeof value.instructions === "string" && typeof value.id === "string" && !("type" in value);
  });
}

export function readCodex(records: JsonLine[], strict: boolean): ReaderOutput {
  const reader = new CodexReader(strict);
  for (const record of records) reader.add(record);
  return reader.finish();
}

/**
 * The Codex reader, fed one record at a time. `mapEntry`: what to keep of
 * each entry made (null: nothing), as for PiReader (core/compact-stream.ts).
 */
export class CodexReader {
  private readonly warnings: ReaderOutput["warnings"] = [];
  private readonly toolCallIds = new Set<string>();
  private readonly offTreeRecords: Record<string, number> = {};
  private readonly entries: Entry[] = [];
  private header: unknown;
  private formatVersion: string | undefined;
  private previousId: string | null = null;
  private legacy = false;

  constructor(
    private readonly strict: boolean,
    private readonly mapEntry?: (entry: Entry) => Entry | null,
  ) {}

  /**
   * A reader that goes on after records another one took (the library reads a grown file from where
   * its last read ended, core/library/resume.ts): the header was seen (null here: a later session_meta
   * is the repeat it would be) and the next entry hangs below `previousId`.
   */
  static resumed(previousId: string | null, legacy: boolean, strict = false): CodexReader {
    const reader = new CodexReader(strict);
    reader.header = null;
    reader.previousId = previousId;
    reader.legacy = legacy;
    return reader;
  }

  private push(entry: Entry): void {
    const kept = this.mapEntry ? this.mapEntry(entry) : entry;
    if (kept) this.entries.push(kept);
    this.previousId = entry.id;
  }

  add({ line, value }: JsonLine): void {
    const { warnings, toolCallIds, previousId } = this;
    if (!isRecord(value)) {
      if (this.strict) throw new SessionError(line, "a Codex record must be a JSON object");
      warnings.push({ line, message: "not a JSON object; skipped" });
      return;
    }
    const id = `L${line}`;
    if (value.record_type === "state") {
      this.legacy = true;
      countOffTree(this.offTreeRecords, "state");
      return;
    }
    if (typeof value.type === "string" && MODERN_TYPES.has(value.type) && "payload" in value) {
      const payload = value.payload;
      const entry: Entry = { id, parentId: previousId, line, type: value.type, messages: [] };
      if (value.type === "response_item" && isRecord(payload)) {
        entry.messages.push(...responseItemMessages(payload, id, line, toolCallIds));
      } else if (value.type === "compacted" && isRecord(payload)) {
        entry.messages.push({
          id,
          role: "summary",
          meta: without(payload, "message"),
          blocks: typeof payload.message === "string" ? [{ type: "text", text: payload.message }] : [],
          line,
        });
      } else {
        if (value.type === "session_meta") {
          if (this.header === undefined) this.header = payload;
          else warnings.push({ line, message: "session_meta repeated (the session was resumed); the first is the header" });
          if (isRecord(payload) && typeof payload.cli_version === "string") this.formatVersion ??= payload.cli_version;
        }
        entry.data = value;
      }
      this.push(entry);
      return;
    }
    // Before any entry (previousId is the last entry's id), a legacy rollout's first line is its header.
    if (this.header === undefined && previousId === null && typeof value.instructions === "string" && !("type" in value)) {
      this.legacy = true;
      this.header = value;
      return;
    }
    if (typeof value.type === "string" && RESPONSE_ITEM_TYPES.has(value.type)) {
      this.legacy = true;
      this.push({ id, parentId: previousId, line, type: value.type, messages: responseItemMessages(value, id, line, toolCallIds) });
      return;
    }
    // Newer record kinds (world_state, …): kept as tree nodes the model never sees.
    this.push({ id, parentId: previousId, line, type: typeof value.type === "string" ? value.type : "unknown", messages: [], data: value });
  }

  finish(): ReaderOutput {
    return {
      format: "codex",
      formatVersion: this.formatVersion ?? (this.legacy ? "legacy-2025-08" : undefined),
      header: this.header,
      entries: this.entries,
      warnings: this.warnings,
      toolCallIds: this.toolCallIds,
      offTreeRecords: this.offTreeRecords,
      defaultLeafId: this.previousId,
      recorded: (path) => codexCompactionHistory(path).recorded,
      compactions: (path) => codexCompactionHistory(path).compactions,
      usage: codexUsage,
    };
  }
}
