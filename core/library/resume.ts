/**
 * Where the library's read of a JSON Lines session ended, kept with its rows,
 * so that a file the agent has only appended to since is read from there: the
 * bytes it grew by, not the whole file (issue #29: a heavy user's daily
 * re-open costs what changed).
 *
 * A point is made for Pi (v2 and later: entries name their own ids), Claude
 * Code and Codex files, the formats whose readers take one record at a time.
 * It holds no text of the session: the byte and line counts read, SHA-256 of
 * the file's first and last 4 KB read (a file whose bytes already read
 * changed is read whole), the default leaf and the entries after it that only
 * hang below it (where a growth may attach), the API id of an assistant
 * message a later streamed line could still extend (Claude Code), and
 * Bloom filters of the entry ids read (a growth that reuses one, which a fresh
 * read would skip as a duplicate, is read whole).
 *
 * The growth is read by the format's own reader, resumed (`PiReader` with the
 * header's version, `ClaudeReader.resumed`, `CodexReader.resumed`), over the
 * anchor entries; `grownTail` says whether what it read can be added to the
 * last rows as they stand, and when it cannot, why (the file is then read
 * whole). What it accepts is only what leaves every earlier figure as it was:
 * new entries below the default leaf, no compaction, no warning, no reused
 * id. The rows it yields equal a fresh index of the grown file (tested on
 * every real fixture of those formats, cut at many lines).
 */
import type { Entry, FormatName, Message, Session } from "../model.ts";
import { JsonLinesParser, type JsonLine } from "../jsonl.ts";
import { PiReader } from "../formats/pi.ts";
import { ClaudeReader, resultCallId } from "../formats/claude.ts";
import { CodexReader } from "../formats/codex.ts";
import type { ReaderOutput } from "../formats/common.ts";
import { sessionFromReader } from "../session.ts";
import { sha256HexSync } from "../sha256.ts";
import { isZstd } from "../zstd.ts";
import { idFilterFor, OpenIdFilter, type IdFilter } from "./id-filter.ts";

/** Bytes hashed at each end of what was read: a rewrite in place that leaves both alike is not caught. */
export const RESUME_CHECK_BYTES = 4096;
/** Entries after the default leaf that hang below it (Claude Code's system and progress lines) kept as anchors; more, and no point is kept. */
const MAX_ANCHORS = 64;

export type ResumableFormat = "pi" | "claude" | "codex";

export interface ResumePoint {
  format: ResumableFormat;
  /** Pi: the header's version (a resumed reader is given a header of it). */
  piVersion?: number;
  /** Codex: a legacy rollout (its reader's flag). */
  codexLegacy?: boolean;
  /** Bytes read, which end on a line break; and the line breaks among them (the growth's first line is one more). */
  bytes: number;
  lines: number;
  /** SHA-256 (hex) of the first min(bytes, 4 KB) bytes and of the last 4 KB read. */
  headSha256: string;
  endSha256: string;
  /** The default leaf first, then the entries after it in file order that hang below it and hold no message. */
  anchors: { id: string; parentId: string | null }[];
  /** Claude Code: the API id of the branch's last assistant message while only tool results follow it (a line of the same id would be merged into it). */
  openApiId: string | null;
  /** Every entry id read (Pi, Claude Code), as Bloom filters (one more each time the last is full); Codex ids are line numbers. */
  ids: IdFilter[] | null;
}

export function isResumableFormat(format: FormatName): format is ResumableFormat {
  return format === "pi" || format === "claude" || format === "codex";
}

const NEWLINE = 10;

/** The line breaks in `bytes` (memchr-speed: indexOf on bytes). */
export function lineBreaks(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** The two hashed ranges of a file of `size` bytes: its head and its end. */
export function checkRanges(size: number): { head: [number, number]; end: [number, number] } {
  return { head: [0, Math.min(size, RESUME_CHECK_BYTES)], end: [Math.max(0, size - RESUME_CHECK_BYTES), size] };
}

const sha = (bytes: Uint8Array) => sha256HexSync(bytes);

/**
 * The point a whole read of `bytes` ends at, for `session` (read from them); undefined where a growth
 * could not be read on its own: another format, a Pi v1 file, a file that does not end on a line break
 * (its last line may still be being written), one not plain UTF-8 (a zstd stream, a UTF-16 file).
 */
export function resumePointOf(session: Session, bytes: Uint8Array): ResumePoint | undefined {
  if (!isResumableFormat(session.format) || bytes.length === 0 || bytes[bytes.length - 1] !== NEWLINE) return undefined;
  if (bytes[0] === 0xfe || bytes[0] === 0xff || isZstd(bytes)) return undefined;
  const piVersion = session.format === "pi" ? Number(session.formatVersion) : undefined;
  if (piVersion !== undefined && !(piVersion >= 2)) return undefined;
  const anchors = anchorsAfter(session.entries, session.defaultLeafId);
  if (!anchors) return undefined;
  const { head, end } = checkRanges(bytes.length);
  const ids = session.format === "codex" ? null : idFilterFor(session.entries.length);
  if (ids) for (const id of session.byId.keys()) ids.add(id);
  return {
    format: session.format,
    ...(piVersion !== undefined ? { piVersion } : {}),
    ...(session.format === "codex" ? { codexLegacy: session.formatVersion === "legacy-2025-08" } : {}),
    bytes: bytes.length,
    lines: lineBreaks(bytes),
    headSha256: sha(bytes.subarray(...head)),
    endSha256: sha(bytes.subarray(...end)),
    anchors,
    openApiId: session.format === "claude" ? openApiIdOf(session.branch(session.defaultLeafId), null) : null,
    ids: ids && [ids.kept()],
  };
}

/** The default leaf and the entries after it (file order) that hang below it and hold no message; null when there are too many to keep. */
function anchorsAfter(entries: readonly Entry[], leafId: string | null): ResumePoint["anchors"] | null {
  if (leafId === null) return null;
  const at = entries.findIndex((entry) => entry.id === leafId);
  if (at === -1) return null;
  const leaf = entries[at]!;
  const anchors: ResumePoint["anchors"] = [{ id: leaf.id, parentId: leaf.parentId }];
  const below = new Set([leaf.id]);
  for (let i = at + 1; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.parentId === null || !below.has(entry.parentId) || entry.sidechain || entry.messages.length > 0) continue;
    // A compaction's record below the leaf (a Claude Code boundary hangs there by its logical parent) counts
    // once the branch goes on past it, below it or beside it (the generated transcripts' property test found
    // both): its record is not kept, so no point is made and the next growth is read whole.
    if (isCompactionType(entry.type)) return null;
    if (anchors.length === MAX_ANCHORS) return null;
    anchors.push({ id: entry.id, parentId: entry.parentId });
    below.add(entry.id);
  }
  return anchors;
}

/**
 * What StreamedLinesMerge would still hold at the end of `branch`: the API id of the last assistant
 * message when only tool results follow it (null when another message came after it); `before` when the
 * branch holds nothing but tool results (the merge still holds what it held).
 */
function openApiIdOf(branch: readonly Message[], before: string | null): string | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    const message = branch[i]!;
    if (message.role === "toolResult") continue;
    return message.role === "assistant" && typeof message.meta.id === "string" ? message.meta.id : null;
  }
  return before;
}

/** The growth read against a point: what it adds to the rows, or why the file must be read whole. */
export type TailRead =
  | {
      ok: true;
      /** The growth as a session of its own, over the anchors (their entries hold no message). */
      session: Session;
      leafId: string;
      /** Messages the default branch gained, and warnings the file's lines gained. */
      messages: number;
      warnings: number;
      /** The point this read ends at (the caller fills in the hashes of the grown file's ends). */
      next: Omit<ResumePoint, "headSha256" | "endSha256"> | undefined;
    }
  | { ok: false; why: string };

const fatal = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the bytes a file grew by (`tail`: from `point.bytes` to its end, which the caller checked is a
 * line break) and says whether they can be added to the rows of the read that ended at `point`.
 */
export function grownTail(point: ResumePoint, tail: Uint8Array): TailRead {
  if (tail.length === 0 || tail[tail.length - 1] !== NEWLINE) return { ok: false, why: "its last line is not finished" };
  if (tail.indexOf(0) !== -1) return { ok: false, why: "what it grew by holds a NUL byte" };
  let text: string;
  try {
    text = fatal.decode(tail);
  } catch {
    return { ok: false, why: "what it grew by is not valid UTF-8" };
  }
  const reader = resumedReader(point);
  const parser = new JsonLinesParser(false, (record: JsonLine) => reader.add({ line: record.line + point.lines, value: record.value }));
  parser.push(text);
  // Counted before finish, which counts the empty text after the last line break as a line.
  const breaks = parser.lineBreaks;
  const parsed = parser.finish();
  const output = reader.finish();
  // A line's own warnings (not JSON, not a record of the format, a repeated header) are the fresh read's
  // for the same line, so they add up; the tree's (a missing parent, a duplicate) depend on what came before.
  const lineWarnings = [...parsed.warnings, ...output.warnings];
  if (output.entries.some((entry) => isCompactionType(entry.type))) return { ok: false, why: "it grew by a compaction" };
  let open: OpenIdFilter[] | null = null;
  if (point.ids) {
    open = [];
    for (const kept of point.ids) {
      const filter = OpenIdFilter.open(kept);
      if (!filter) return { ok: false, why: "its resume point's id filter does not read" };
      open.push(filter);
    }
    if (output.entries.some((entry) => open!.some((filter) => filter.mayHave(entry.id)))) return { ok: false, why: "a line it grew by may reuse an entry id" };
  }

  const anchors: Entry[] = point.anchors.map((anchor, i) => ({ id: anchor.id, parentId: i === 0 ? null : anchor.parentId, line: 0, type: "resumed-from", messages: [] }));
  const entries = [...anchors, ...output.entries];
  const warnings = [...lineWarnings];
  const session = sessionFromReader({ ...output, entries, warnings, defaultLeafId: output.defaultLeafId ?? point.anchors[0]!.id }, false);
  if (session.warnings.length > lineWarnings.length) return { ok: false, why: "what it grew by hangs below an entry before the last one read" };
  const leafId = session.defaultLeafId;
  if (leafId === null || session.path(leafId)[0]?.id !== point.anchors[0]!.id) return { ok: false, why: "its default branch moved to another" };
  if (session.recordedCompactions(leafId).length > 0) return { ok: false, why: "it grew by a compaction" };
  const branch = session.branch(leafId);
  if (point.format === "claude") {
    // A parallel tool result beside the path is taken into the branch when it answers a call on the path
    // (claudeBranchEntries): one that answers no call of the growth's may answer one read before.
    const path = session.path(leafId);
    const onPath = new Set(path.map((entry) => entry.id));
    const calls = new Set<string>();
    for (const entry of path) for (const message of entry.messages) for (const block of message.blocks) if (block.type === "toolCall") calls.add(block.id);
    const answersEarlier = (entry: Entry) =>
      !onPath.has(entry.id) && entry.messages.length > 0 && entry.messages.every((m) => m.role === "toolResult") && entry.messages.some((m) => !calls.has(resultCallId(m)));
    if (output.entries.some(answersEarlier)) return { ok: false, why: "a tool result it grew by sits beside the branch and answers a call read before" };
    const firstAssistant = branch.find((message) => message.role === "assistant");
    if (point.openApiId !== null && firstAssistant?.meta.id === point.openApiId) return { ok: false, why: "its last reply went on streaming" };
  }

  let next: Omit<ResumePoint, "headSha256" | "endSha256"> | undefined;
  // The old anchors' own parents, not the root the growth was read over.
  const nextAnchors = anchorsAfter(entries, leafId)?.map((anchor) => (anchor.id === point.anchors[0]!.id ? point.anchors[0]! : anchor));
  if (nextAnchors) {
    if (open && output.entries.length > 0) {
      let last = open[open.length - 1]!;
      if (last.count + output.entries.length > last.capacity) {
        last = idFilterFor(open.reduce((sum, filter) => sum + filter.count, 0) + output.entries.length);
        open.push(last);
      }
      for (const entry of output.entries) last.add(entry.id);
    }
    const { headSha256: _head, endSha256: _end, ...kept } = point;
    next = {
      ...kept,
      bytes: point.bytes + tail.length,
      lines: point.lines + breaks,
      anchors: nextAnchors,
      openApiId: point.format === "claude" ? openApiIdOf(branch, point.openApiId) : null,
      ids: open && open.map((filter) => filter.kept()),
    };
  }
  return { ok: true, session, leafId, messages: branch.length, warnings: lineWarnings.length, next };
}

/** Entry types that record a compaction (Claude Code's compact and microcompact boundaries, Codex's `compacted`, Pi's `compaction`). */
function isCompactionType(type: string): boolean {
  return /compact/i.test(type);
}

interface ResumedReader {
  add(record: JsonLine): void;
  finish(): ReaderOutput;
}

function resumedReader(point: ResumePoint): ResumedReader {
  const leaf = point.anchors[0]!.id;
  if (point.format === "pi") return new PiReader({ line: 0, value: { type: "session", id: "resumed", version: point.piVersion } }, false);
  if (point.format === "claude") return ClaudeReader.resumed(leaf);
  return CodexReader.resumed(point.anchors.at(-1)!.id, point.codexLegacy === true);
}

/** Whether the hashed ends of what was read are still the file's (`head` and `end`: its bytes over checkRanges(point.bytes)). */
export function sameStart(point: ResumePoint, head: Uint8Array, end: Uint8Array): boolean {
  return sha(head) === point.headSha256 && sha(end) === point.endSha256;
}

/** The hashes of a grown file's ends (its bytes over checkRanges(size)). */
export function endHashes(head: Uint8Array, end: Uint8Array): Pick<ResumePoint, "headSha256" | "endSha256"> {
  return { headSha256: sha(head), endSha256: sha(end) };
}
