/** Moving around the view on screen: selection, the detail panel, search, filters, recovery, help. */
import { FLAG_DIFFERS, FLAG_HAS_OMISSION, ROLE_CODES, type Pane, type ViewSummary } from "../worker/protocol.ts";
import { writeDeepLink } from "./deep-links.ts";
import { client, get, messageOf, ready, set, viewId, type Filters, type Selection } from "./state.ts";

export async function recoverPayload(recoveryId: string, full = false): Promise<void> {
  const current = get().recovered[recoveryId];
  if (current?.status === "loading" || (current?.status === "done" && !full)) return;
  set((state) => ({ recovered: { ...state.recovered, [recoveryId]: { status: "loading" } } }));
  try {
    const result = await client().request({ type: "recover", view: viewId(), recoveryId, full }).promise;
    set((state) => ({ recovered: { ...state.recovered, [recoveryId]: { status: "done", result } } }));
  } catch (error) {
    set((state) => ({ recovered: { ...state.recovered, [recoveryId]: { status: "error", message: messageOf(error) } } }));
  }
}

export function hideRecovered(recoveryId: string): void {
  set((state) => {
    const recovered = { ...state.recovered };
    delete recovered[recoveryId];
    return { recovered };
  });
}

export async function recoverAll(recoveryIds: string[]): Promise<void> {
  await Promise.all(recoveryIds.map((id) => recoverPayload(id)));
}

export function toggleThinking(key: string): void {
  set((state) => ({ expandedThinking: { ...state.expandedThinking, [key]: !state.expandedThinking[key] } }));
}

export async function select(selection: Selection | null, scroll = true): Promise<void> {
  if (selection && !ready()) return;
  set({ selected: selection });
  if (!selection) {
    set({ detail: null });
    return;
  }
  if (scroll) requestScroll(selection.pane, selection.index);
  const view = get().view;
  if (!view) return;
  const geometry = view[selection.pane];
  const other: Pane = selection.pane === "original" ? "active" : "original";
  const otherIndex = geometry.aligned[selection.index] ?? -1;
  if (otherIndex >= 0 && scroll) requestScroll(other, otherIndex);
  const activeIndex = selection.pane === "active" ? selection.index : otherIndex;
  const originalIndex = selection.pane === "original" ? selection.index : otherIndex;
  const engine = client();
  const [original, active] = await Promise.all([
    originalIndex >= 0 ? engine.request({ type: "detail", view: view.id, pane: "original", index: originalIndex, full: false }).promise : null,
    activeIndex >= 0 ? engine.request({ type: "detail", view: view.id, pane: "active", index: activeIndex, full: false }).promise : null,
  ]);
  const differs = activeIndex >= 0 && (view.active.flags[activeIndex]! & FLAG_DIFFERS) !== 0;
  const diff = differs ? await engine.request({ type: "diff", view: view.id, index: activeIndex, full: false }).promise : null;
  // Only the selection still on screen, on the view still on screen, gets its detail.
  if (get().selected === selection && get().view === view) set({ detail: { original, active, diff } });
  writeDeepLink();
}

export async function showFull(pane: Pane, index: number): Promise<void> {
  const detail = await client().request({ type: "detail", view: viewId(), pane, index, full: true }).promise;
  set((state) => (state.detail ? { detail: { ...state.detail, [pane]: detail } } : {}));
}

export async function showFullDiff(index: number): Promise<void> {
  const diff = await client().request({ type: "diff", view: viewId(), index, full: true }).promise;
  set((state) => (state.detail ? { detail: { ...state.detail, diff } } : {}));
}

export function requestScroll(pane: Pane, index: number): void {
  set({ scrollRequest: { pane, index, nonce: Math.random() } });
}

export function setFilters(filters: Partial<Filters>): void {
  set((state) => ({ filters: { ...state.filters, ...filters } }));
}

/** Rows of a pane that pass the filters, in order. */
export function visibleRows(view: ViewSummary, pane: Pane, filters: Filters): Int32Array | null {
  if (filters.roles.length === 0 && !filters.onlyOmissions) return null;
  const geometry = view[pane];
  const roleCodes = new Set(filters.roles.map((role) => ROLE_CODES.indexOf(role)));
  const out: number[] = [];
  for (let i = 0; i < geometry.count; i++) {
    if (roleCodes.size > 0 && !roleCodes.has(geometry.roles[i]!)) continue;
    // "Only omissions" filters the active pane by its markers and the original pane by its counterpart's.
    if (filters.onlyOmissions) {
      const activeRow = pane === "active" ? i : geometry.aligned[i]!;
      if (activeRow < 0 || (view.active.flags[activeRow]! & FLAG_HAS_OMISSION) === 0) continue;
    }
    out.push(i);
  }
  return Int32Array.from(out);
}

/**
 * The latest find asked for, and the latest one that goes to its first match: an answer to an earlier
 * count (typing goes faster than the worker) is dropped, and a count never drops an Enter's find.
 */
let searchSerial = 0;
let jumpSerial = 0;

/**
 * Finds `query` in both panes and selects the first match. `keepPlace` only counts (as the user types,
 * or when a followed file grew under a find): the place in the matches stays, or is none yet (cursor -1,
 * the next Enter goes to the first).
 */
export async function runSearch(query: string, keepPlace = false): Promise<void> {
  if (!ready()) return;
  const serial = ++searchSerial;
  const jump = keepPlace ? jumpSerial : ++jumpSerial;
  if (query.trim() === "") {
    set({ search: null });
    return;
  }
  const result = await client().request({ type: "search", view: viewId(), query }).promise;
  if (keepPlace ? serial !== searchSerial : jump !== jumpSerial) return;
  if (keepPlace) {
    const cursor = get().search?.query === query ? get().search!.cursor : -1;
    set({ search: { query, ...result, cursor } });
    return;
  }
  set({ search: { query, ...result, cursor: 0 } });
  const first =
    result.active[0] !== undefined
      ? { pane: "active" as const, index: result.active[0] }
      : result.original[0] !== undefined
        ? { pane: "original" as const, index: result.original[0] }
        : null;
  if (first) void select(first);
}

/** Esc in the find box: the matches stop being highlighted; the selected message stays. */
export function closeSearch(): void {
  set({ search: null });
}

export function stepSearch(delta: 1 | -1): void {
  const search = get().search;
  if (!search) return;
  const hits = search.active.length > 0 ? search.active : search.original;
  if (hits.length === 0) return;
  const cursor = (search.cursor + delta + hits.length) % hits.length;
  set({ search: { ...search, cursor } });
  void select({ pane: search.active.length > 0 ? "active" : "original", index: hits[cursor]! });
}

/** j/k: the next or previous row in the selected pane (default: active). */
export function stepRow(delta: 1 | -1): Promise<void> {
  const { view, selected } = get();
  if (!view || !ready()) return Promise.resolve();
  const pane = selected?.pane ?? "active";
  const count = view[pane].count;
  if (count === 0) return Promise.resolve();
  const index = selected ? Math.min(count - 1, Math.max(0, selected.index + delta)) : 0;
  return select({ pane, index });
}

/** n/p: the next or previous active row with an omission marker. */
export function stepOmission(delta: 1 | -1): Promise<void> {
  const { view, selected } = get();
  if (!view || !ready()) return Promise.resolve();
  const flags = view.active.flags;
  const from = selected?.pane === "active" ? selected.index : selected ? (view.original.aligned[selected.index] ?? -1) : -1;
  for (let i = from + delta; i >= 0 && i < flags.length; i += delta) {
    if (flags[i]! & FLAG_HAS_OMISSION) return select({ pane: "active", index: i });
  }
  return Promise.resolve();
}

/** Enter: recover every marker of the selected active row. */
export async function recoverSelected(): Promise<void> {
  const { selected, view } = get();
  if (!selected || !view || !ready()) return;
  const activeIndex = selected.pane === "active" ? selected.index : (view.original.aligned[selected.index] ?? -1);
  if (activeIndex < 0) return;
  const detail = await client().request({ type: "detail", view: view.id, pane: "active", index: activeIndex, full: false }).promise;
  await recoverAll(detail.blocks.flatMap((block) => (block.recoveryId ? [block.recoveryId] : [])));
}

/** A message by id (evidence, a deep link): selected in the active pane if it is there, else in the original. */
export async function jumpToMessage(messageId: string): Promise<void> {
  const where = await client().request({ type: "locate", view: viewId(), messageId }).promise;
  if (where.active >= 0) await select({ pane: "active", index: where.active });
  else if (where.original >= 0) await select({ pane: "original", index: where.original });
}

export function setShowHelp(showHelp: boolean): void {
  set({ showHelp });
}

export function toggleHelp(): void {
  set((state) => ({ showHelp: !state.showHelp }));
}
