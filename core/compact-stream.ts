/**
 * Transparent compaction of a session without holding it: the CLI's
 * `compact` of a Pi, Claude Code or Codex file, which would otherwise need
 * the whole session in memory (2.2 GB for the 1 GB bench session).
 *
 * The file is read twice. The first read is the usual load, keeping only an
 * outline of each entry (core/outline.ts): the tree, the branch's entries,
 * its message count and its tool calls' names. This second read parses only
 * the lines of the branch's records (a format's reader turns each into its
 * entry, as on a whole load; Claude Code's streamed lines are merged as they
 * come), compacts each message as it comes with the strategy's own
 * per-message code (strategies/transparent-payloads.ts), writes the active
 * view as it goes and spools the archive, which comes after the view in a
 * checkpoint. The stats are counted message by message with the same tallies
 * as compactSession. What stays in memory is the outline and one read piece.
 *
 * The bytes are exactly those of compactSession + checkpointPieces for the
 * transparent strategy without a prose cap or an earlier checkpoint (which
 * need the whole branch before its first message is written): tested on every
 * Pi, Claude Code and Codex fixture and on generated sessions
 * (test/core/compact-stream.test.ts).
 */
import { CHECKPOINT_SCHEMA, StatsTally, type CheckpointSource, type CheckpointStats } from "./checkpoint.ts";
import { checkpointHead, checkpointTail } from "./checkpoint-json.ts";
import { TokenStatsTally } from "./composition.ts";
import type { TextPieces } from "./decode.ts";
import { ClaudeReader, StreamedLinesMerge } from "./formats/claude.ts";
import { CodexReader } from "./formats/codex.ts";
import { PiReader } from "./formats/pi.ts";
import { JsonLinesParser, type JsonLine } from "./jsonl.ts";
import { SessionError, type Entry, type FormatName, type Message, type Session } from "./model.ts";
import { deepestMessage, isStackOverflow } from "./depth.ts";
import { hashPayloads, placeMarkers, planMessage, type PendingPayload } from "./strategies/transparent-payloads.ts";
import { loadTokenizer } from "./tokens.ts";
import { toolCallsById, type CallNames } from "./tool-info.ts";

/** Where the checkpoint goes. The archive comes after the active view, so its pieces are kept aside until asked for. */
export interface CheckpointSink {
  write(piece: string): void;
  /** Keeps a piece of the archive aside, in order. */
  spool(piece: string): void;
  /** Writes everything spooled so far, in order. */
  writeSpooled(): void;
}

export interface StreamedCompaction {
  /** An outline read of the file (StreamingSessionLoader with outlineEntry: `outlined` true). */
  outline: Session;
  source: Pick<CheckpointSource, "name" | "bytes" | "sha256">;
  /** The branch's entries, from streamableEntries. */
  entries: Entry[];
  leafId: string | null;
  countTokens: boolean;
}

/** How a second read turns a format's records into its branch's messages. */
interface FormatStream {
  /** Whether the file's first record must be read whatever it is (Pi's header, which its reader starts from). */
  firstRecordNeeded: boolean;
  /** A sink for the records read; `take` is handed each entry made. */
  reader(take: (entry: Entry) => null): (record: JsonLine) => void;
  /** Turns the branch entries' messages, in order, into the branch's (Claude Code merges a streamed message's lines); none: as they are. */
  merge?(): { add(message: Message): Message[]; finish(): Message[] };
}

const STREAMS: Partial<Record<FormatName, FormatStream>> = {
  pi: {
    firstRecordNeeded: true,
    reader: (take) => {
      let reader: PiReader | undefined;
      return (record) => {
        if (reader) reader.add(record);
        else reader = new PiReader(record, false, take);
      };
    },
  },
  claude: {
    firstRecordNeeded: false,
    reader: (take) => {
      const reader = new ClaudeReader(false, take);
      return (record) => reader.add(record);
    },
    merge: () => new StreamedLinesMerge(),
  },
  codex: {
    firstRecordNeeded: false,
    reader: (take) => {
      const reader = new CodexReader(false, take);
      return (record) => reader.add(record);
    },
  },
};

/**
 * The entries whose messages make the branch, when its format streams and
 * one pass in file order meets them in branch order (their lines strictly
 * increase: always so in an append-only file); undefined otherwise (a
 * repaired tree, another format), and the caller loads the session whole.
 */
export function streamableEntries(outline: Session, leafId: string | null): Entry[] | undefined {
  if (!STREAMS[outline.format]) return undefined;
  const entries = outline.branchEntries(leafId);
  for (let i = 1; i < entries.length; i++) if (entries[i]!.line <= entries[i - 1]!.line) return undefined;
  return entries;
}

/** Compacts the branch of `job.entries` from `pieces` (the file read again, the same bytes as the outline's read) into `sink`. */
export async function compactStreamed(job: StreamedCompaction, pieces: Iterable<Uint8Array>, decoder: TextPieces, sink: CheckpointSink): Promise<void> {
  const { outline } = job;
  const leafId = job.leafId ?? outline.defaultLeafId;
  const branch = outline.branch(leafId);
  if (job.countTokens) await loadTokenizer();
  const source: CheckpointSource = {
    ...job.source,
    format: outline.format,
    ...(outline.formatVersion !== undefined ? { formatVersion: outline.formatVersion } : {}),
    leafId,
    branchMessages: branch.length,
  };
  sink.write(checkpointHead({ schema: CHECKPOINT_SCHEMA, source, strategy: { name: "transparent", options: {} } }));
  sink.write("[");

  const view = new ViewWriter(sink, toolCallsById(branch), job.countTokens ? new TokenStatsTally(outline.format) : undefined);
  const stream = STREAMS[outline.format];
  if (!stream) throw new Error(`a ${outline.format} session is not compacted as it is read`);
  const { entries } = job;
  const wantedLines = new Set<number>();
  for (const entry of entries) wantedLines.add(entry.line);
  const merge = stream.merge?.();
  let next = 0;
  const take = (entry: Entry): null => {
    const expected = entries[next];
    if (expected && entry.id === expected.id && entry.line === expected.line) {
      for (const message of entry.messages) view.queue(merge ? merge.add(message) : [message]);
      next++;
    }
    return null;
  };
  const toReader = stream.reader(take);
  let firstRead = !stream.firstRecordNeeded;
  // Only the lines of the branch's records are parsed (and the first, where the reader starts from it).
  const parser = new JsonLinesParser(
    false,
    (record: JsonLine) => {
      firstRead = true;
      toReader(record);
    },
    (line) => firstRead && !wantedLines.has(line),
  );
  for (const piece of pieces) {
    parser.push(decoder.decode(piece));
    await view.flush();
  }
  const rest = decoder.finish();
  if (rest) parser.push(rest);
  parser.finish();
  if (merge) view.queue(merge.finish());
  await view.flush();
  if (next !== entries.length || view.messages !== branch.length) throw new Error("the file changed between its two reads: its branch is not what the first read found");

  sink.write("]");
  sink.write(',"archive":[');
  sink.writeSpooled();
  sink.write(checkpointTail(view.stats()));
}

/** The active view written message by message, its archive spooled, its stats counted. */
class ViewWriter {
  private queued: Message[] = [];
  messages = 0;
  private payloads = 0;
  private activeChars = 2; // "[" and "]"
  /** activeChars − originalChars (see placeMarkers). */
  private delta = 0;
  private readonly tally = new StatsTally();

  constructor(
    private readonly sink: CheckpointSink,
    private readonly calls: CallNames,
    private readonly tokens: TokenStatsTally | undefined,
  ) {}

  queue(messages: readonly Message[]): void {
    for (const message of messages) this.queued.push(message);
  }

  /**
   * Compacts and writes the messages queued since the last flush. A message
   * nested too deeply for JSON.stringify's recursion is named with its line
   * (as the CLI names it when it holds the whole session).
   */
  async flush(): Promise<void> {
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    try {
      await this.write(batch);
    } catch (error) {
      const deepest = isStackOverflow(error) ? deepestMessage(batch) : undefined;
      if (!deepest) throw error;
      throw new SessionError(deepest.message.line ?? 0, `message ${deepest.message.id} is nested ${deepest.depth} levels deep, more than this tool can process`);
    }
  }

  private async write(batch: Message[]): Promise<void> {
    const pending: PendingPayload[] = [];
    const active = batch.map((message, index) => {
      const blocks = planMessage(message, index, this.calls, pending);
      return blocks === message.blocks ? message : { ...message, blocks };
    });
    const { archive, digests } = await hashPayloads(pending);
    this.delta += placeMarkers(pending, archive, digests, active);
    const { sink, tally, tokens } = this;
    batch.forEach((message, index) => {
      const kept = active[index]!;
      if (this.messages > 0) {
        sink.write(",");
        this.activeChars++;
      }
      const json = JSON.stringify(kept);
      sink.write(json);
      this.activeChars += json.length;
      this.messages++;
      tally.add(message, kept);
      if (tokens) {
        const counted = tokens.addOriginal(message);
        tokens.addActive(kept, kept === message ? counted : undefined);
      }
    });
    for (const entry of archive) {
      if (this.payloads > 0) sink.spool(",");
      sink.spool(JSON.stringify(entry));
      this.payloads++;
    }
  }

  stats(): CheckpointStats {
    const lengths = { activeChars: this.activeChars, originalChars: this.activeChars - this.delta };
    const stats = this.tally.stats(this.payloads, 0, lengths);
    return this.tokens ? { ...stats, ...this.tokens.stats() } : stats;
  }
}
