/**
 * The entry tree: index, validation, leaves and root→leaf paths.
 * Strict mode rejects a missing parent, a cycle and a duplicate id, naming the
 * line; lenient mode repairs what it must (the entry becomes a root, or the
 * duplicate is dropped) and lists a warning. Every walk is iterative and
 * visits an entry at most a bounded number of times, so a corrupt file can
 * neither overflow the stack nor hang.
 */
import { SessionError, type Entry, type LoadWarning } from "./model.ts";

export interface EntryTree {
  entries: Entry[];
  byId: Map<string, Entry>;
  children: Map<string, string[]>;
}

export function buildTree(input: Entry[], strict: boolean, warnings: LoadWarning[]): EntryTree {
  const byId = new Map<string, Entry>();
  const entries: Entry[] = [];
  const children = new Map<string, string[]>();
  // Append-only logs name a parent before its children. While that holds, the
  // children lists are built in this one pass and no cycle is possible (every
  // parent comes strictly earlier), so the repair walk below is skipped.
  let parentsComeFirst = true;
  for (const entry of input) {
    const earlier = byId.get(entry.id);
    if (earlier) {
      const reason = duplicateReason(entry, earlier);
      if (strict) throw new SessionError(entry.line, reason);
      warnings.push({ line: entry.line, message: `${reason}${SKIPPED}` });
      continue;
    }
    if (parentsComeFirst && entry.parentId !== null) {
      if (!byId.has(entry.parentId)) parentsComeFirst = false;
      else {
        const siblings = children.get(entry.parentId);
        if (siblings) siblings.push(entry.id);
        else children.set(entry.parentId, [entry.id]);
      }
    }
    byId.set(entry.id, entry);
    entries.push(entry);
  }
  if (parentsComeFirst) return { entries, byId, children };
  children.clear();

  for (const entry of entries) {
    if (entry.parentId !== null && !byId.has(entry.parentId)) {
      const reason = `parent "${entry.parentId}" names no entry`;
      if (strict) throw new SessionError(entry.line, reason);
      warnings.push({ line: entry.line, message: `${reason}; treated as a root` });
      entry.parentId = null;
    }
  }

  breakCycles(entries, byId, strict, warnings);

  for (const entry of entries) {
    if (entry.parentId === null) continue;
    const list = children.get(entry.parentId);
    if (list) list.push(entry.id);
    else children.set(entry.parentId, [entry.id]);
  }
  return { entries, byId, children };
}

const SKIPPED = "; the later entry is skipped";

function duplicateReason(entry: Entry, earlier: Entry): string {
  return `duplicate id "${entry.id}" (first used on line ${earlier.line})`;
}

/** Colours each entry once: 0 unseen, 1 on the current walk, 2 known to reach a root. */
function breakCycles(entries: Entry[], byId: Map<string, Entry>, strict: boolean, warnings: LoadWarning[]): void {
  const state = new Map<string, 1 | 2>();
  for (const start of entries) {
    if (state.has(start.id)) continue;
    const walk: Entry[] = [];
    let current: Entry | undefined = start;
    while (current && !state.has(current.id)) {
      state.set(current.id, 1);
      walk.push(current);
      current = current.parentId === null ? undefined : byId.get(current.parentId);
    }
    if (current && state.get(current.id) === 1) {
      // `current` is on this walk: its parent chain loops back to it.
      const reason = `cycle: entry "${current.id}" is its own ancestor`;
      if (strict) throw new SessionError(current.line, reason);
      warnings.push({ line: current.line, message: `${reason}; treated as a root` });
      current.parentId = null;
    }
    for (const entry of walk) state.set(entry.id, 2);
  }
}

/** Root → leaf. Assumes a tree built by buildTree (no cycles). */
export function pathTo(tree: Pick<EntryTree, "byId">, leafId: string): Entry[] {
  const path: Entry[] = [];
  let current = tree.byId.get(leafId);
  while (current) {
    path.push(current);
    current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
  }
  return path.reverse();
}

/** Entries without children, in file order. */
export function childlessEntries(tree: EntryTree): Entry[] {
  return tree.entries.filter((entry) => !tree.children.has(entry.id));
}

/**
 * The tree of a file that only grows (a followed session), built in place as
 * entries arrive, with `buildTree`'s own rules while parents come first (a
 * duplicate id skipped with its warning). An entry whose parent is not known
 * yet ends that: `inOrder` turns false and the caller builds the tree whole
 * with `buildTree`, which repairs what it must. The indexes only grow, so a
 * session made over an earlier state still finds every entry it listed.
 */
export class GrowingTree implements EntryTree {
  readonly entries: Entry[] = [];
  readonly byId = new Map<string, Entry>();
  readonly children = new Map<string, string[]>();
  readonly warnings: LoadWarning[] = [];
  /** Ids of the entries without children, in file order (a Set keeps insertion order): the leaves without a walk. */
  readonly childless = new Set<string>();
  private taken = 0;
  private ordered = true;

  get inOrder(): boolean {
    return this.ordered;
  }

  /** Takes the entries of `all` not taken yet (`all` grows by appending). */
  take(all: readonly Entry[]): void {
    for (; this.ordered && this.taken < all.length; this.taken++) {
      const entry = all[this.taken]!;
      const earlier = this.byId.get(entry.id);
      if (earlier) {
        this.warnings.push({ line: entry.line, message: `${duplicateReason(entry, earlier)}${SKIPPED}` });
        continue;
      }
      if (entry.parentId !== null) {
        if (!this.byId.has(entry.parentId)) {
          this.ordered = false;
          return;
        }
        const siblings = this.children.get(entry.parentId);
        if (siblings) siblings.push(entry.id);
        else this.children.set(entry.parentId, [entry.id]);
        this.childless.delete(entry.parentId);
      }
      this.byId.set(entry.id, entry);
      this.entries.push(entry);
      this.childless.add(entry.id);
    }
  }
}
