/**
 * The transparent view of a branch that grows: what a followed session needs
 * (the app's Follow makes the view on screen again on every look). The
 * transparent strategy reads each message on its own (its markers name the
 * message's id, its labels the call a result answers), so the view of a
 * branch that starts with the same messages as the one before starts with
 * the same active messages and archive entries: only the messages after the
 * shared start are planned, hashed and measured again. A session's messages
 * never change once read, and a followed session keeps the objects of its
 * branch's unchanged start (core/follow.ts), so "the same" is identity.
 *
 * The one exception is a tool call after the shared start (in this branch or
 * in the last one) whose id the start used, in a call or in a result: a
 * result's label names its call by id (the last call of that id on the
 * branch), so a result before could now be labelled after another call; then
 * the whole branch is read again. The result equals `transparent` over the
 * whole branch in every case (test/core/strategies/transparent-growth.test.ts),
 * and a fresh TransparentGrowth is how `transparent` makes an uncapped view.
 */
import type { ArchiveEntry, TallyCounts } from "../checkpoint.ts";
import { computeStats, StatsTally } from "../checkpoint.ts";
import type { Message, ToolCallBlock } from "../model.ts";
import { rememberJson } from "../serialized.ts";
import { resultCallId } from "../tool-info.ts";
import { hashPayloads, placeMarkers, planMessage, type PendingPayload } from "./transparent-payloads.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

/** Numbers kept per message of the stats' counts (TallyCounts' three). */
const TALLY_STRIDE = 3;

export class TransparentGrowth {
  /** The branch of the last view, and per message of it: its active message, where its archive entries end, its JSON lengths. */
  private branch: readonly Message[] = [];
  private active: Message[] = [];
  private archive: ArchiveEntry[] = [];
  private archiveEnd: number[] = [];
  /** JSON length of each active message, and its active length minus its branch length (what its markers replaced). */
  private activeLength: number[] = [];
  private markerDelta: number[] = [];

  /**
   * The view's stats counted message by message (StatsTally): the counts after each message (three
   * numbers a message, in one flat array: a 100 MB session has 100,000s of them), and
   * the index each id first stands at. The stats pair a message with the active one of its id, which
   * is the one at its index while ids are unique; from the first id met twice (`repeatedAt`) the
   * stats are counted whole (computeStats), as the capped path does.
   */
  private tallyAfter: number[] = [];
  private firstIndexOf = new Map<string, number>();
  private repeatedAt = Number.POSITIVE_INFINITY;

  /** Messages planned, hashed and measured by the last view (the rest were the view before's): for tests and figures. */
  lastReadFrom = 0;

  /** The uncapped transparent view of `branch`, reading only what follows the start it shares with the last one. */
  async view(branch: readonly Message[], context: Pick<StrategyContext, "warn">): Promise<StrategyResult> {
    try {
      return await this.grownView(branch, context);
    } catch (error) {
      // A view that failed half-way (its payloads' hashing) left its arrays between two branches: the next one starts afresh.
      this.forgetAll();
      throw error;
    }
  }

  private forgetAll(): void {
    this.branch = [];
    this.active = [];
    this.archive = [];
    this.archiveEnd = [];
    this.activeLength = [];
    this.markerDelta = [];
    this.tallyAfter = [];
    this.firstIndexOf = new Map();
    this.repeatedAt = Number.POSITIVE_INFINITY;
    this.callsSoFar.clear();
  }

  private async grownView(branch: readonly Message[], context: Pick<StrategyContext, "warn">): Promise<StrategyResult> {
    const { calls, from } = this.sharedStart(branch);
    this.forgetIdsFrom(from);
    this.lastReadFrom = from;
    this.active.length = from;
    this.archive.length = from > 0 ? this.archiveEnd[from - 1]! : 0;
    this.archiveEnd.length = from;
    this.activeLength.length = from;
    this.markerDelta.length = from;

    // What moves out of each new message; markers are filled in once hashed.
    const pending: PendingPayload[] = [];
    const pendingEnd: number[] = [];
    for (let index = from; index < branch.length; index++) {
      const message = branch[index]!;
      const blocks = planMessage(message, index, calls, pending);
      this.active.push(blocks === message.blocks ? message : { ...message, blocks });
      pendingEnd.push(pending.length);
    }
    const { archive, digests } = await hashPayloads(pending);
    let start = 0;
    for (let index = from; index < branch.length; index++) {
      const end = pendingEnd[index - from]!;
      this.markerDelta.push(placeMarkers(pending.slice(start, end), archive.slice(start, end), digests.slice(start, end), this.active));
      for (let i = start; i < end; i++) this.archive.push(archive[i]!);
      this.archiveEnd.push(this.archive.length);
      start = end;
    }

    // One serialization of each new active message gives the view's JSON length; a whole view read
    // at once is remembered for the checkpoint writer (a followed one is not written on each look).
    const json: string[] | null = from === 0 ? [] : null;
    for (let index = from; index < branch.length; index++) {
      const text = JSON.stringify(this.active[index]);
      json?.push(text);
      this.activeLength.push(text.length);
    }
    const active = this.active.slice();
    if (json) rememberJson(active, `[${json.join(",")}]`);
    if (context.warn) warnUnarchivedMarkers(active, this.archive, context.warn);
    this.branch = branch;

    let activeChars = active.length > 0 ? active.length + 1 : 2;
    let delta = 0;
    for (let index = 0; index < active.length; index++) {
      activeChars += this.activeLength[index]!;
      delta += this.markerDelta[index]!;
    }
    const archiveNow = this.archive.slice();
    const lengths = { activeChars, originalChars: activeChars - delta };
    for (let index = from; index < branch.length; index++) {
      const id = branch[index]!.id;
      if (this.firstIndexOf.has(id)) this.repeatedAt = Math.min(this.repeatedAt, index);
      else this.firstIndexOf.set(id, index);
    }
    if (this.repeatedAt < branch.length) {
      this.tallyAfter.length = 0;
      return { active, archive: archiveNow, stats: computeStats(branch, active, archiveNow.length, 0, lengths) };
    }
    // Only the messages after the counted start are counted.
    const counted = this.tallyAfter.length / TALLY_STRIDE;
    const tally = counted > 0 ? StatsTally.resume(this.countsAfter(counted - 1)) : new StatsTally();
    for (let index = counted; index < branch.length; index++) {
      tally.add(branch[index]!, active[index]);
      const counts = tally.counts();
      this.tallyAfter.push(counts.proseSegments, counts.proseVerbatim, counts.metadataFields);
    }
    return { active, archive: archiveNow, stats: tally.stats(archiveNow.length, 0, lengths) };
  }

  /** Forgets what the last view knew of its messages from `from` on: the ids they brought, their counts. */
  private forgetIdsFrom(from: number): void {
    for (let index = from; index < this.branch.length; index++) {
      const id = this.branch[index]!.id;
      if (this.firstIndexOf.get(id)! >= from) this.firstIndexOf.delete(id);
    }
    if (this.repeatedAt >= from) this.repeatedAt = Number.POSITIVE_INFINITY;
    if (this.tallyAfter.length > from * TALLY_STRIDE) this.tallyAfter.length = from * TALLY_STRIDE;
  }

  /** The stats' counts after message `index`. */
  private countsAfter(index: number): TallyCounts {
    const at = index * TALLY_STRIDE;
    return { proseSegments: this.tallyAfter[at]!, proseVerbatim: this.tallyAfter[at + 1]!, metadataFields: this.tallyAfter[at + 2]! };
  }

  /**
   * Takes `branch` as the last view's branch: the same messages read again as other objects (a
   * followed file's first look reads the very bytes the session was opened from, with the same
   * reader). The caller vouches for that; what is checked here is what is cheap: the count and each
   * message's id, role and number of blocks. Active messages that were the branch's own become the
   * new objects, so that the next look finds the shared start by identity and reads only what grew.
   * Returns false, changing nothing, when the branches differ.
   */
  adopt(branch: readonly Message[]): boolean {
    const previous = this.branch;
    if (previous.length === 0 || !sameMessagesReadAgain(previous, branch)) return false;
    for (let index = 0; index < branch.length; index++) if (this.active[index] === previous[index]) this.active[index] = branch[index]!;
    this.branch = branch;
    this.callsSoFar.readAgain(previous, branch);
    return true;
  }

  /** Whether `messages` are the last view's active messages, the same objects (a view made by this growth, not another). */
  madeView(messages: readonly Message[]): boolean {
    return messages.length === this.active.length && messages.every((message, index) => message === this.active[index]);
  }

  /** The last view's active messages as they stand (after `adopt`, with the branch's own read again): what the next view starts with. */
  activeMessages(): readonly Message[] {
    return this.active.slice();
  }

  /**
   * The tool calls of `branch` by id (the last of each id, as `toolCallsById`), and how many of its
   * first messages are the last view's own: none when a call after them reuses an id from before.
   * The calls and answered ids of the shared start are kept from the last view (`CallsSoFar`), so a
   * look walks only the messages after it, not the whole branch again.
   */
  private sharedStart(branch: readonly Message[]): { calls: Map<string, ToolCallBlock>; from: number } {
    const previous = this.branch;
    let from = 0;
    while (from < branch.length && from < previous.length && branch[from] === previous[from]) from++;
    const known = this.callsSoFar;
    known.keepFirst(from, branch);
    // The calls the shared start's results answer, met there or not (a result may come before its call).
    const seen = new Set<string>();
    let reused = false;
    for (let index = from; index < branch.length && from > 0 && !reused; index++) {
      for (const block of branch[index]!.blocks) {
        if (block.type !== "toolCall") continue;
        if (known.calls.has(block.id) || known.answered.has(block.id) || seen.has(block.id)) reused = true;
        seen.add(block.id);
      }
    }
    // A call the last view had after the start, and this branch has not, named a result of the start
    // the same way (a result before its call, or a later call of an id the start used): read again.
    for (let index = from; index < previous.length && from > 0 && !reused; index++) {
      for (const block of previous[index]!.blocks) {
        if (block.type === "toolCall" && (known.calls.has(block.id) || known.answered.has(block.id))) reused = true;
      }
    }
    if (reused) {
      known.keepFirst(0, branch);
      from = 0;
    }
    for (let index = known.messages; index < branch.length; index++) known.add(branch[index]!);
    return { calls: known.calls, from };
  }

  private readonly callsSoFar = new CallsSoFar();
}

/**
 * The tool calls (the last of each id) and the answered call ids of a branch's first messages, with
 * what each message changed, so that a shorter start is had by undoing the last messages.
 */
class CallsSoFar {
  readonly calls = new Map<string, ToolCallBlock>();
  readonly answered = new Set<string>();
  /** The leading messages the maps hold, in order (the objects: a view that failed half-way held another branch's). */
  private held: Message[] = [];
  /** Per change, in order: the id, and the call it replaced (`undefined` none; `null`: an answered id added). */
  private changedIds: string[] = [];
  private replaced: (ToolCallBlock | null | undefined)[] = [];
  /** Per message held, where its changes end. */
  private changesEnd: number[] = [];

  /** Holds `branch`'s first `count` messages: undoes the messages past them, or adds those missing. */
  keepFirst(count: number, branch: readonly Message[]): void {
    if (count === 0) return this.clear();
    let same = 0;
    while (same < count && same < this.held.length && this.held[same] === branch[same]) same++;
    while (this.held.length > same) this.undoLast();
    for (let index = same; index < count; index++) this.add(branch[index]!);
  }

  /** How many leading messages the maps hold. */
  get messages(): number {
    return this.held.length;
  }

  add(message: Message): void {
    if (message.role === "toolResult") {
      const callId = resultCallId(message);
      if (callId && !this.answered.has(callId)) {
        this.answered.add(callId);
        this.changedIds.push(callId);
        this.replaced.push(null);
      }
    }
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      this.changedIds.push(block.id);
      this.replaced.push(this.calls.get(block.id));
      this.calls.set(block.id, block);
    }
    this.changesEnd.push(this.changedIds.length);
    this.held.push(message);
  }

  private undoLast(): void {
    this.changesEnd.pop();
    const start = this.changesEnd.at(-1) ?? 0;
    for (let at = this.changedIds.length - 1; at >= start; at--) {
      const id = this.changedIds[at]!;
      const replaced = this.replaced[at];
      if (replaced === null) this.answered.delete(id);
      else if (replaced === undefined) this.calls.delete(id);
      else this.calls.set(id, replaced);
    }
    this.changedIds.length = start;
    this.replaced.length = start;
    this.held.pop();
  }

  /**
   * Holds `after`, the same messages as `before` read again (TransparentGrowth.adopt), where the maps
   * held `before`: a call's entry stays the old block, which names the same tool (all that is read
   * of it). Anything else held is forgotten.
   */
  readAgain(before: readonly Message[], after: readonly Message[]): void {
    const same = this.held.length === before.length && this.held.every((message, index) => message === before[index]);
    if (!same || before.length !== after.length) return this.clear();
    this.held = after.slice();
  }

  /** Forgets everything. */
  clear(): void {
    this.calls.clear();
    this.answered.clear();
    this.changedIds = [];
    this.replaced = [];
    this.changesEnd = [];
    this.held = [];
  }
}

/** Whether two branches hold the same messages, read twice: the same ids, roles and block counts in the same order. */
export function sameMessagesReadAgain(a: readonly Message[], b: readonly Message[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    if (x.id !== y.id || x.role !== y.role || x.blocks.length !== y.blocks.length) return false;
  }
  return true;
}

/** A marker already in the branch (a checkpoint read back) whose payload this view does not hold. */
function warnUnarchivedMarkers(active: readonly Message[], archive: readonly ArchiveEntry[], warn: (message: string) => void): void {
  const archived = new Set<string>();
  for (const entry of archive) archived.add(entry.id);
  for (const message of active) {
    for (const block of message.blocks) {
      if (block.type === "omitted" && !archived.has(block.recoveryId)) warn(`marker ${block.recoveryId} has no archived payload (was the previous checkpoint given?)`);
    }
  }
}
