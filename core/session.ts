/**
 * Bytes → the neutral Session: decode, detect, read, build and validate the
 * tree, list leaves. The only entry point the worker and the CLI call.
 */
import { decodeSessionBytes, nulTailOf, nulTailWarning } from "./decode.ts";
import { decompressZstd, isZstd } from "./zstd.ts";
import { readAnyFormat } from "./formats/detect.ts";
import { messagesOf, type BranchContext, type ReaderOutput } from "./formats/common.ts";
import type { Entry, FormatName, Message, RecordedCompaction, Session, UsageSeries } from "./model.ts";
import type { UsageFold } from "./usage/fold.ts";
import { SessionError } from "./model.ts";
import { isSqliteFile } from "./sqlite/engine.ts";
import { buildTree, childlessEntries, GrowingTree, pathTo, type EntryTree } from "./tree.ts";

export interface LoadOptions {
  /** Override detection. */
  format?: FormatName;
  /** Reject problems instead of listing them as warnings (the CLI's --strict). */
  strict?: boolean;
}

export function loadSession(input: Uint8Array | string, options: LoadOptions = {}): Session {
  // A database needs SQLite, which loads asynchronously: the app's and the CLI's file readers open it (core/sqlite/).
  if (typeof input !== "string" && isSqliteFile(input)) {
    throw new SessionError(
      0,
      "a SQLite database (OpenCode's opencode.db?): this command reads session files only; open the database in the app, with inspect or audit FILE, or in a library",
    );
  }
  let bytes = typeof input === "string" ? undefined : isZstd(input) ? decompressZstd(input) : input;
  const strict = options.strict ?? false;
  // A NUL-filled end (a write that never finished) is cut off and named; outside strict mode, as a warning.
  const tail = bytes && !strict ? nulTailOf(bytes) : null;
  if (bytes && tail) bytes = bytes.subarray(0, tail.start);
  const text = bytes ? (bytes.length === 0 ? "" : decodeSessionBytes(bytes)) : stripBom(input as string);
  if (text.trim() === "") throw new SessionError(tail?.line ?? 0, tail ? "the file holds only NUL bytes: this is not a text session file" : "the file is empty");
  const output = readAnyFormat(text, { format: options.format, strict });
  if (tail) output.warnings.push(nulTailWarning(tail));
  return sessionFromReader(output, strict);
}

/** A reader's entries → the Session: the tree built and checked, the leaves listed, branches served. */
export function sessionFromReader(output: ReaderOutput, strict: boolean): Session {
  const tree = buildTree(output.entries, strict, output.warnings);
  return sessionOverTree(output, tree);
}

/**
 * A branch already served by an earlier session of the same growing file (the
 * follower's): a new leaf that descends from `leafId` is served as this path
 * and these messages plus what was added below it, without walking the whole
 * branch again.
 */
export interface BranchSeed {
  leafId: string;
  path: readonly Entry[];
  messages: readonly Message[];
  /** How many entries the tree held when the seed was made (a format whose branch is more than its path resumes from it). */
  entries?: number;
  /** The usage fold of `path`, for a reader that has one (ReaderOutput.usageFold): a later leaf's usage goes on from it. */
  usage?: UsageFold;
}

/** Each session's usage fold per leaf, for the follower's next seed (usageFoldOf). */
const usageFolds = new WeakMap<Session, (leafId: string | null) => UsageFold | undefined>();

/** The fold behind `session.usage(leafId)`, where its reader has one: what a followed file's next look goes on from. */
export function usageFoldOf(session: Session, leafId: string | null): UsageFold | undefined {
  return usageFolds.get(session)?.(leafId);
}

/** The Session over a tree already built (by `buildTree`, or grown in place by a follower); `output.warnings` holds the tree's too. */
export function sessionOverTree(output: ReaderOutput, tree: EntryTree, seed?: BranchSeed): Session {
  const warnings = output.warnings;
  const context: BranchContext = { children: tree.children, byId: tree.byId };

  const childless = tree instanceof GrowingTree ? [...tree.childless].map((id) => tree.byId.get(id)!) : childlessEntries(tree);
  const candidates = childless.filter((entry) => output.isLeafCandidate?.(entry) ?? true);
  let defaultLeafId = output.defaultLeafId !== null && tree.byId.has(output.defaultLeafId) ? output.defaultLeafId : null;
  if (defaultLeafId === null && candidates.length > 0) defaultLeafId = candidates[candidates.length - 1]!.id;
  const leaves = candidates.map((entry) => entry.id);
  if (defaultLeafId !== null && !leaves.includes(defaultLeafId)) leaves.push(defaultLeafId);

  // One array per leaf: a session never changes once made, and readers key what they work out of a path by it.
  const pathCache = new Map<string, Entry[]>();
  const pathFor = (leafId: string | null): Entry[] => {
    const id = leafId ?? defaultLeafId;
    if (id === null) return [];
    let path = pathCache.get(id);
    if (path) return path;
    if (!tree.byId.has(id)) throw new SessionError(0, `no entry with id "${id}"`);
    path = seed ? (seededPath(tree, id, seed)?.path ?? pathTo(tree, id)) : pathTo(tree, id);
    pathCache.set(id, path);
    return path;
  };
  const branchCache = new Map<string, Message[]>();
  const usageCache = new Map<string, UsageSeries>();
  const usageFoldCache = new Map<string, UsageFold>();
  /** A leaf's usage fold: the seed's gone on with the entries below its leaf, or one over the whole path. */
  const usageFoldFor = (leafId: string | null): UsageFold | undefined => {
    if (!output.usageFold) return undefined;
    const id = leafId ?? defaultLeafId;
    const seeded = seed?.usage && id !== null && tree.byId.has(id) ? seededPath(tree, id, seed) : null;
    const fold = seeded ? seed!.usage!.copy() : output.usageFold();
    for (const entry of seeded ? seeded.added : pathFor(leafId)) fold.add(entry);
    usageFoldCache.set(leafId ?? defaultLeafId ?? "", fold);
    return fold;
  };
  const compactionsCache = new Map<string, RecordedCompaction[]>();
  const branchOf = (leafId: string | null): Message[] => {
    const key = leafId ?? defaultLeafId ?? "";
    let messages = branchCache.get(key);
    if (!messages) {
      const id = leafId ?? defaultLeafId;
      const seeded = seed && id !== null && tree.byId.has(id) ? seededPath(tree, id, seed) : null;
      if (seeded && !output.branchMessages) messages = seed!.messages.concat(messagesOf(seeded.added));
      else if (seeded && output.resumeBranch && seed!.entries !== undefined) {
        messages = output.resumeBranch({ messages: seed!.messages, entries: seed!.entries }, seeded.added, tree.entries) ?? undefined;
      }
      if (!messages) {
        const path = pathFor(leafId);
        messages = output.branchMessages ? output.branchMessages(path, context) : messagesOf(path);
      }
      branchCache.set(key, messages);
    }
    return messages;
  };

  const session: Session = {
    format: output.format,
    formatVersion: output.formatVersion,
    header: output.header,
    entries: tree.entries,
    byId: tree.byId,
    leaves,
    defaultLeafId,
    warnings,
    toolCallIds: output.toolCallIds,
    offTreeRecords: output.offTreeRecords,
    path: pathFor,
    branch: branchOf,
    branchEntries(leafId) {
      const path = pathFor(leafId);
      return output.branchEntries ? output.branchEntries(path, context) : path;
    },
    recordedContext(leafId) {
      return output.recorded(pathFor(leafId), context, () => branchOf(leafId));
    },
    recordedCompactions(leafId) {
      // Read by the summary, the view's dividers and a followed file's notices alike: worked out once per leaf.
      const key = leafId ?? defaultLeafId ?? "";
      let compactions = compactionsCache.get(key);
      if (!compactions) {
        compactions = output.compactions ? output.compactions(pathFor(leafId), context, () => branchOf(leafId)) : [];
        compactionsCache.set(key, compactions);
      }
      return compactions;
    },
    usage(leafId) {
      // Read by the timeline, the usage comparison and a followed file's every look: worked out once per leaf.
      const key = leafId ?? defaultLeafId ?? "";
      let series = usageCache.get(key);
      if (!series) {
        const fold = usageFoldFor(leafId);
        series = fold ? fold.series() : output.usage ? output.usage(pathFor(leafId), context) : { turns: [], contextWindow: null, notes: [] };
        usageCache.set(key, series);
      }
      return series;
    },
  };
  usageFolds.set(session, (leafId) => {
    session.usage(leafId);
    return usageFoldCache.get(leafId ?? defaultLeafId ?? "");
  });
  return session;
}

/** Root → `leafId` when it descends from the seed's leaf (or is it): the seed's path and the entries below it. */
function seededPath(tree: Pick<EntryTree, "byId">, leafId: string, seed: BranchSeed): { path: Entry[]; added: Entry[] } | null {
  const added: Entry[] = [];
  let current = tree.byId.get(leafId);
  while (current && current.id !== seed.leafId) {
    added.push(current);
    current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
  }
  if (!current) return null;
  added.reverse();
  return { path: seed.path.concat(added), added };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
