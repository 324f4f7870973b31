/**
 * Following a session file while the agent writes it. Every agent the
 * product reads appends JSON Lines as it works (Gemini CLI's `$set` rewrites
 * and Copilot's events included), so a followed file is read once: the
 * bytes appended since the last look are decoded and split into records,
 * and a line the writer has cut in the middle (or a character cut between
 * its bytes) waits for its end. A Pi session (the format whose reader takes
 * one record at a time) is then grown in place: each new record is read into
 * its entry, the tree takes the new entries, and the default branch is the
 * last one plus what was added below it, so taking in a growth costs what the
 * growth holds. Claude Code and Codex files, whose readers also take one
 * record at a time, go the same way once their first records have named the
 * format (the 50 a fresh read decides by). Other formats, and a tree whose
 * parents stop coming first, are rebuilt from what was already parsed, so the
 * format's reader sees exactly what a fresh read of the file would give it.
 * Either way the followed session equals a fresh read.
 *
 * What cannot be followed is said, never guessed: a file that shrank, or
 * whose bytes already read changed (a rewrite in place), starts over; a file
 * that is one JSON value (an export, a legacy Gemini chat) is read whole
 * again on each change.
 */
import { JsonLinesParser, type JsonLine } from "./jsonl.ts";
import { readJsonLinesRecords } from "./formats/detect.ts";
import { loadSession, sessionFromReader, sessionOverTree, usageFoldOf, type BranchSeed, type LoadOptions } from "./session.ts";
import type { Session } from "./model.ts";
import { looksLikePi, PiReader } from "./formats/pi.ts";
import { ClaudeReader } from "./formats/claude.ts";
import { CodexReader } from "./formats/codex.ts";
import { acceptingJsonLines, DETECTION_RECORDS } from "./formats/recognise.ts";
import type { ReaderOutput } from "./formats/common.ts";
import { buildTree, GrowingTree } from "./tree.ts";

/** Bytes kept from the end of what was read: compared on each look to catch a rewrite in place. */
export const TAIL_CHECK_BYTES = 4096;

export type FollowChange =
  /** New complete lines were read. */
  | { kind: "grew"; bytes: number; records: number }
  /** Nothing new, or only part of a line. */
  | { kind: "unchanged" }
  /** The file shrank or its bytes already read changed: read again from the start. */
  | { kind: "rewritten"; why: string };

export class FollowedFile {
  private parser: JsonLinesParser;
  private records: JsonLine[] = [];
  private decoder = new TextDecoder("utf-8");
  private bytesRead = 0;
  private tail: Uint8Array = new Uint8Array(0);
  /** The whole bytes, kept only while the file is not JSON Lines (one JSON value is re-read whole). */
  private whole: Uint8Array[] | null = [];
  private isJsonLines: boolean | null = null;
  private recordsTaken = 0;
  /** A Pi file, read a record at a time into a tree grown in place (null: records kept and read whole). */
  private pi: GrownInPlace | null = null;
  /** A Claude Code or Codex file, the same way once its format is named by its first records. */
  private byRecord: GrownInPlace | null = null;

  constructor(private readonly options: LoadOptions = {}) {
    this.parser = this.newParser();
  }

  private newParser(): JsonLinesParser {
    return new JsonLinesParser(false, (record) => this.take(record));
  }

  private take(record: JsonLine): void {
    this.recordsTaken++;
    if (this.pi) return this.pi.reader.add(record);
    if (this.byRecord) return this.byRecord.reader.add(record);
    if (this.records.length === 0 && looksLikePi(record.value) && (this.options.format ?? "pi") === "pi") {
      this.pi = { reader: new PiReader(record, false), tree: new GrowingTree() };
    }
    this.records.push(record);
    if (!this.pi && this.records.length === DETECTION_RECORDS) this.startReadingByRecord();
  }

  /**
   * The first records decide a JSON Lines file's format whatever follows (DETECTION_RECORDS), so once
   * they name Claude Code or Codex alone its reader takes the records so far and each one after.
   */
  private startReadingByRecord(): void {
    const accepted = acceptingJsonLines(this.records);
    const format = accepted.length === 1 ? accepted[0]! : null;
    if (format !== "claude" && format !== "codex") return;
    if (this.options.format !== undefined && this.options.format !== format) return;
    const reader = format === "claude" ? new ClaudeReader(false) : new CodexReader(false);
    for (const record of this.records) reader.add(record);
    this.records = [];
    this.byRecord = { reader, tree: new GrowingTree() };
  }

  /** Whether each growth is taken in place (Pi, Claude Code, Codex) rather than rebuilt from every record read. */
  get growsInPlace(): boolean {
    return this.pi !== null || this.byRecord !== null;
  }

  /** How far the file has been read. */
  get offset(): number {
    return this.bytesRead;
  }

  /** Bytes the caller holds from the end of what was read, to compare with the file's (see `check`). */
  get tailBytes(): Uint8Array {
    return this.tail;
  }

  /**
   * Before reading on: whether the file still starts with what was read.
   * `size` is the file's size now; `tailNow` its bytes over the same range as
   * `tailBytes` (read by the caller). A mismatch resets the follower.
   */
  check(size: number, tailNow: Uint8Array): FollowChange | null {
    if (size < this.bytesRead) return this.reset(`the file shrank from ${this.bytesRead} to ${size} bytes`);
    if (!sameBytes(tailNow, this.tail)) return this.reset("bytes already read changed (the file was rewritten in place)");
    return null;
  }

  private reset(why: string): FollowChange {
    this.parser = this.newParser();
    this.records = [];
    this.decoder = new TextDecoder("utf-8");
    this.bytesRead = 0;
    this.tail = new Uint8Array(0);
    this.whole = [];
    this.isJsonLines = null;
    this.pi = null;
    this.byRecord = null;
    this.recordsTaken = 0;
    return { kind: "rewritten", why };
  }

  /** The bytes appended since the last call, in order. */
  append(chunk: Uint8Array): FollowChange {
    if (chunk.length === 0) return { kind: "unchanged" };
    this.bytesRead += chunk.length;
    this.tail = lastBytes(this.tail, chunk, TAIL_CHECK_BYTES);
    if (this.whole) this.whole.push(chunk.slice());
    const before = this.recordsTaken;
    this.parser.push(this.decoder.decode(chunk, { stream: true }));
    if (this.isJsonLines === null && this.recordsTaken > 0) this.isJsonLines = this.parser.firstLineIsJson;
    // JSON Lines: the records are all that is needed from here on.
    if (this.isJsonLines) this.whole = null;
    const records = this.recordsTaken - before;
    // Not (yet) known to be JSON Lines: the whole bytes are read again, so any new byte is a change.
    return records > 0 || this.isJsonLines !== true ? { kind: "grew", bytes: chunk.length, records } : { kind: "unchanged" };
  }

  /** The session as the complete lines read so far stand (the line being written waits). */
  session(): Session {
    if (this.isJsonLines !== true) return loadSession(concat(this.whole ?? []), this.options);
    const grown = this.pi ?? this.byRecord;
    if (grown) return this.grownSession(grown);
    const output = readJsonLinesRecords({ records: this.records, warnings: [...this.parser.warningsSoFar] }, { format: this.options.format, strict: false });
    return sessionFromReader(output, false);
  }

  /** The session grown in place; the tree built whole (as a fresh read builds it) once parents stop coming first. */
  private grownSession(grown: GrownInPlace): Session {
    const output = grown.reader.finish();
    const readerWarnings = [...this.parser.warningsSoFar, ...output.warnings];
    grown.tree.take(output.entries);
    if (!grown.tree.inOrder) {
      // buildTree repairs entries in place (a missing parent becomes a root): on copies, so the next look
      // repairs (and warns) again, as a fresh read would. (A v1 file, whose compactions find their target
      // by entry, never gets here: its entries are linked line to line, so its parents always come first.)
      const warnings = [...readerWarnings];
      const entries = output.entries.map((entry) => ({ ...entry }));
      return sessionOverTree({ ...output, entries, warnings }, buildTree(entries, false, warnings));
    }
    const session = sessionOverTree({ ...output, warnings: [...readerWarnings, ...grown.tree.warnings] }, grown.tree, grown.seed);
    if (session.defaultLeafId !== null) {
      grown.seed = {
        leafId: session.defaultLeafId,
        path: session.path(null),
        messages: session.branch(null),
        entries: grown.tree.entries.length,
        usage: usageFoldOf(session, null),
      };
    }
    return session;
  }
}

/** A file whose reader takes one record at a time, and the tree its entries grow. */
interface GrownInPlace {
  reader: { add(record: JsonLine): void; finish(): ReaderOutput };
  tree: GrowingTree;
  seed?: BranchSeed;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function lastBytes(previous: Uint8Array, chunk: Uint8Array, keep: number): Uint8Array {
  if (chunk.length >= keep) return chunk.slice(chunk.length - keep);
  const joined = new Uint8Array(Math.min(keep, previous.length + chunk.length));
  const fromPrevious = joined.length - chunk.length;
  joined.set(previous.subarray(previous.length - fromPrevious), 0);
  joined.set(chunk, fromPrevious);
  return joined;
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
