/**
 * Following the file of the session on screen while the agent writes it: the
 * page asks for a look at a short interval (never while its tab is hidden),
 * and each look reads only the bytes added since the last one, through the
 * file handle the browser gave (File System Access API). The records are
 * parsed once (core/follow.ts) and the file's hash goes on from where it was
 * (Sha256Stream), so a look at a grown file costs what was added plus making
 * the view again, not reading the file again.
 */
import { FollowedFile, type FollowChange } from "../../../core/follow.ts";
import { Sha256Stream } from "../../../core/sha256.ts";
import type { Session } from "../../../core/model.ts";
import { sameMessagesReadAgain } from "../../../core/strategies/transparent-growth.ts";
import { carrySummedStarts, carryTokenCounts } from "../../../core/tokens.ts";
import { carryRowHeight } from "../projection.ts";
import type { LoadedSession, View } from "../view.ts";
import type { TaskContext } from "../task.ts";

/** What a FileSystemFileHandle offers that following needs (a fake in Node tests). */
export interface ReadableHandle {
  getFile(): Promise<File>;
}

/** The first look reads the whole file: in slices, so row requests are answered in between. */
const FIRST_READ_SLICE = 8 << 20;

export class FileFollower {
  private followed = new FollowedFile();
  private hash = new Sha256Stream();
  private lastModified = -1;

  constructor(private readonly handle: ReadableHandle) {}

  /** Bytes read so far. */
  get bytes(): number {
    return this.followed.offset;
  }

  /** SHA-256 of the bytes read so far. */
  sha256(): string {
    return this.hash.hex();
  }

  /** The session as the complete records read so far stand. */
  session(): Session {
    return this.followed.session();
  }

  /** Reads what the file gained since the last look; a file that shrank or changed is read again from its start. */
  async look(task: TaskContext): Promise<FollowChange> {
    let file: File;
    try {
      file = await this.handle.getFile();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`the file can no longer be read (${reason}): it was removed or renamed, or the browser withdrew the permission to read it`);
    }
    if (file.size === this.followed.offset && file.lastModified === this.lastModified) return { kind: "unchanged" };
    this.lastModified = file.lastModified;
    let reset: FollowChange | null = null;
    const offset = this.followed.offset;
    if (offset > 0) {
      const kept = this.followed.tailBytes;
      const tailNow = file.size >= offset ? new Uint8Array(await file.slice(offset - kept.length, offset).arrayBuffer()) : new Uint8Array(0);
      reset = this.followed.check(file.size, tailNow);
      if (reset) this.hash = new Sha256Stream();
    }
    let grew = false;
    let records = 0;
    for (let from = this.followed.offset; from < file.size; from = this.followed.offset) {
      const chunk = new Uint8Array(await file.slice(from, Math.min(file.size, from + FIRST_READ_SLICE)).arrayBuffer());
      if (chunk.length === 0) break;
      this.hash.update(chunk);
      const change = this.followed.append(chunk);
      if (change.kind === "grew") {
        grew = true;
        records += change.records;
      }
      if (this.followed.offset < file.size) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        task.checkCancelled();
      }
    }
    if (reset) return reset;
    return grew ? { kind: "grew", bytes: this.followed.offset - offset, records } : { kind: "unchanged" };
  }
}

/**
 * A followed file's first look read the very bytes the session on screen was opened from (its hash
 * says so), parsed again into other objects. The work done for the opened session is handed to
 * them, so the first growth costs what a later one does instead of a whole rebuild (seconds at
 * 100 MB): each message's token counts and row height, the transparent view made at opening
 * (its next view reads only what follows the branch) and, where the view on screen is that view,
 * its pane models and the sums of its panes (the next look grows them instead of making them whole). Nothing is handed over when the branches
 * differ (another leaf, a reader that does not read the same way twice): the next look then
 * makes everything from the new objects, as before.
 */
export function adoptFollowedSession(loaded: LoadedSession, followed: Session, leafId: string | null, shown?: View): boolean {
  if (leafId !== null && !followed.byId.has(leafId)) return false;
  const opened = loaded.session.branch(leafId);
  const read = followed.branch(leafId);
  if (!sameMessagesReadAgain(opened, read)) return false;
  for (let index = 0; index < read.length; index++) {
    carryTokenCounts(opened[index]!, read[index]!);
    carryRowHeight(opened[index]!, read[index]!);
  }
  // Recorded now, in the look that reads the whole file, so that the next look takes the records of
  // the compactions read so far instead of making them again (Pi's: core/compactions/pi.ts).
  followed.recordedCompactions(leafId);
  const growth = loaded.growth;
  // The view on screen is this growth's view of this branch: its pane models and the sums of its
  // panes hold for the messages read again too (the same ids in the same rows, the same counts).
  const panesHold = shown !== undefined && growth !== undefined && shown.original.messages === opened && growth.madeView(shown.active.messages);
  if (!growth?.adopt(read) || !panesHold) return true;
  const active = growth.activeMessages();
  loaded.panes = {
    original: { ...shown.original, messages: read },
    active: { ...shown.active, messages: active },
    activeToOriginal: shown.activeToOriginal,
    differs: shown.differs,
  };
  carrySummedStarts(opened, read);
  carrySummedStarts(shown.active.messages, active);
  return true;
}
