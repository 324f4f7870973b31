/**
 * The app's state (zustand). It holds projections only: the session itself
 * lives in the worker. Actions talk to the worker through the typed client.
 */
import { create } from "zustand";
import type { RoundsResult } from "../../core/checkride/rounds.ts";
import type { CheckrideResult } from "../../core/checkride/run.ts";
import type { Role } from "../../core/model.ts";
import { EngineError, type EngineClient } from "../worker/client.ts";
import {
  FLAG_HAS_OMISSION,
  ROLE_CODES,
  type CompactParams,
  type DiffResult,
  type FindingView,
  type LoadPreview,
  type LoadSource,
  type MessageDetail,
  type Pane,
  type Progress,
  type RecoveryResult,
  type SessionSummary,
  type StrategyOption,
  type ViewSummary,
} from "../worker/protocol.ts";
import { RowCache } from "./rowCache.ts";

export interface LoadErrorInfo {
  name: string;
  message: string;
  line?: number;
}

export type RecoveryState = { status: "loading" } | { status: "done"; result: RecoveryResult } | { status: "error"; message: string };

export interface Selection {
  pane: Pane;
  index: number;
}

export interface Filters {
  roles: Role[];
  onlyOmissions: boolean;
}

export interface SearchState {
  query: string;
  original: number[];
  active: number[];
  total: number;
  capped: boolean;
  cursor: number;
}

export interface CheckrideSettings {
  strategies: string[];
  reader: "literal" | "endpoint";
  endpointUrl: string;
  model: string;
  /** Kept in memory only: never stored, never exported. */
  apiKey: string;
  timeoutSeconds: number;
  /** Also let this model write the summary slots of pi-default and handoff. */
  summaries: boolean;
  memory: File | null;
}

export interface CheckrideState {
  open: boolean;
  running: boolean;
  results: CheckrideResult[] | null;
  error: string | null;
  settings: CheckrideSettings;
  /** Scores per compaction round of this session, for the history chart. */
  history: { round: number; strategy: string; reader: string; passed: number; asked: number }[];
  rounds: { running: boolean; count: number; plantText: string; plantAt: number; result: RoundsResponse | null; error: string | null };
}

export type RoundsResponse = { results: RoundsResult[]; distractor: string | null };

export interface DeepLink {
  file?: string;
  message?: string;
  strategy?: string;
  leaf?: string;
}

export interface AppState {
  client: EngineClient | null;
  strategies: StrategyOption[];
  loading: { id: number; name: string; progress: Progress | null } | null;
  loadError: LoadErrorInfo | null;
  crashed: string | null;
  busy: string | null;
  session: SessionSummary | null;
  /**
   * Counts the sessions shown, so views keyed by it start fresh for a new one. A load's preview and
   * its final result are the same session (its hash only arrives with the latter): one count.
   */
  sessionSerial: number;
  view: ViewSummary | null;
  lastSource: LoadSource | null;
  strategy: string;
  proseCap: number | null;
  leafId: string | null;
  recovered: Record<string, RecoveryState>;
  expandedThinking: Record<string, boolean>;
  selected: Selection | null;
  detail: { original: MessageDetail | null; active: MessageDetail | null; diff: DiffResult | null } | null;
  filters: Filters;
  search: SearchState | null;
  showHelp: boolean;
  showWarnings: boolean;
  pendingLink: DeepLink | null;
  /** Bumped to ask a pane to scroll a row into view. */
  scrollRequest: { pane: Pane; index: number; nonce: number } | null;
  checkride: CheckrideState;
  share: ShareState;
  presenting: boolean;
}

export interface ShareState {
  open: boolean;
  scanning: boolean;
  findings: FindingView[] | null;
  /** Finding id → masked (the default) or kept. */
  masked: Record<string, boolean>;
  busy: string | null;
  error: string | null;
}

export const rowCaches: Record<Pane, RowCache> = {
  original: new RowCache("original"),
  active: new RowCache("active"),
};

const initialState: Omit<AppState, "client"> = {
  strategies: [],
  loading: null,
  loadError: null,
  crashed: null,
  busy: null,
  session: null,
  sessionSerial: 0,
  view: null,
  lastSource: null,
  strategy: "transparent",
  proseCap: null,
  leafId: null,
  recovered: {},
  expandedThinking: {},
  selected: null,
  detail: null,
  filters: { roles: [], onlyOmissions: false },
  search: null,
  showHelp: false,
  showWarnings: false,
  pendingLink: null,
  scrollRequest: null,
  checkride: {
    open: false,
    running: false,
    results: null,
    error: null,
    settings: { strategies: [], reader: "literal", endpointUrl: "", model: "", apiKey: "", timeoutSeconds: 120, summaries: false, memory: null },
    history: [],
    rounds: { running: false, count: 4, plantText: "", plantAt: 0, result: null, error: null },
  },
  share: { open: false, scanning: false, findings: null, masked: {}, busy: null, error: null },
  presenting: false,
};

export const useApp = create<AppState>(() => ({ client: null, ...initialState }));

const set = useApp.setState;
const get = useApp.getState;

function client(): EngineClient {
  const current = get().client;
  if (!current) throw new Error("the session engine is not started");
  return current;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function connect(engine: EngineClient): void {
  set({ ...initialState, client: engine });
  engine.onCrash((message) => {
    if (message === "restarted") return;
    set({ crashed: message, loading: null, busy: null });
  });
  engine.request({ type: "strategies" }).promise.then((strategies) => set({ strategies }), () => undefined);
}

function compactOptions(): Record<string, unknown> {
  const cap = get().proseCap;
  return cap !== null ? { maxProseChars: cap } : {};
}

/**
 * State for a new view. `sameOriginal`: the original pane lists the same rows
 * as before (same session and branch), so they stay on screen while they are
 * fetched again with their new alignment instead of the pane going blank.
 */
function resetViewState(view: ViewSummary, sameOriginal = false): Partial<AppState> {
  if (sameOriginal) rowCaches.original.refresh();
  else rowCaches.original.reset();
  rowCaches.active.reset();
  const checkride = { ...get().checkride, results: null, error: null };
  return { view, recovered: {}, expandedThinking: {}, selected: null, detail: null, search: null, checkride };
}

/** What was on screen before a load started showing its preview; put back if the load fails. */
let beforePreview: Pick<AppState, "session" | "view" | "sessionSerial"> | null = null;

function pendingView(preview: LoadPreview): ViewSummary {
  const empty = { count: 0, heights: new Uint16Array(), roles: new Uint8Array(), flags: new Uint8Array(), aligned: new Int32Array() };
  return {
    pending: true,
    strategy: preview.strategy,
    options: compactOptions(),
    leafId: preview.leafId,
    stats: { proseSegments: 0, proseVerbatim: 0, payloads: 0, originalChars: 0, activeChars: 0, metadataFields: 0, capped: 0 },
    composition: [],
    estimatedTokens: { original: 0, active: 0 },
    round: 0,
    hasPrevious: false,
    compactMs: 0,
    original: preview.original,
    active: empty,
  };
}

/** Loads a file, a demo or bytes; a load in progress is cancelled first. */
export async function loadSource(source: LoadSource): Promise<void> {
  const engine = client();
  const previous = get().loading;
  if (previous) engine.cancel(previous.id);
  restoreBeforePreview();
  const name = source.kind === "file" ? source.file.name : source.name;
  const link = get().pendingLink;
  let previewed = false;
  const pending = engine.request(
    { type: "load", source, params: { strategy: link?.strategy ?? get().strategy, options: compactOptions(), leafId: link?.leaf ?? null } },
    (progress) => {
      const loading = get().loading;
      if (loading?.id !== pending.id) return;
      const { preview, ...rest } = progress;
      set({ loading: { ...loading, progress: rest } });
      if (preview) {
        // The session is read: show its original branch while the compaction runs.
        beforePreview = { session: get().session, view: get().view, sessionSerial: get().sessionSerial };
        previewed = true;
        const reset = resetViewState(pendingView(preview));
        // Seeded before the panes render the preview, so its first rows need no request.
        rowCaches.original.seedFirstPage(preview.firstRows);
        set({ ...reset, session: preview.session, sessionSerial: get().sessionSerial + 1 });
      }
    },
  );
  set({ loading: { id: pending.id, name, progress: null }, loadError: null });
  try {
    const { session, view } = await pending.promise;
    if (get().loading?.id !== pending.id) return;
    beforePreview = null;
    // After a preview the original pane already shows this branch: keep it on screen.
    const reset = resetViewState(view, previewed && get().view?.leafId === view.leafId);
    set({
      ...reset,
      share: { ...initialState.share },
      checkride: { ...reset.checkride!, history: [] },
      loading: null,
      session,
      lastSource: source,
      sessionSerial: previewed ? get().sessionSerial : get().sessionSerial + 1,
      strategy: view.strategy,
      leafId: view.leafId,
      crashed: null,
      showWarnings: false,
    });
    applyPendingLink(session);
  } catch (error) {
    if (get().loading?.id !== pending.id) return;
    restoreBeforePreview();
    const engineError = error instanceof EngineError ? error : undefined;
    // The previous session stays: only the error is new.
    set({ loading: null, loadError: engineError?.cancelled ? null : { name, message: messageOf(error), line: engineError?.line } });
  }
}

function restoreBeforePreview(): void {
  if (!beforePreview) return;
  const { session, view, sessionSerial } = beforePreview;
  beforePreview = null;
  set({ ...(view ? resetViewState(view) : { view: null }), session, sessionSerial });
}

export function cancelLoad(): void {
  const loading = get().loading;
  if (!loading) return;
  client().cancel(loading.id);
  restoreBeforePreview();
  set({ loading: null });
}

export async function recompact(changes: { strategy?: string; proseCap?: number | null; leafId?: string | null; fromPrevious?: boolean }): Promise<void> {
  if (!get().session || !ready()) return;
  const next = {
    strategy: changes.strategy ?? get().strategy,
    proseCap: changes.proseCap !== undefined ? changes.proseCap : get().proseCap,
    leafId: changes.leafId !== undefined ? changes.leafId : get().leafId,
  };
  set({ ...next, busy: changes.fromPrevious ? "Recompacting…" : "Compacting…" });
  try {
    const view = await client().request({
      type: "compact",
      params: {
        strategy: next.strategy,
        options: next.proseCap !== null ? { maxProseChars: next.proseCap } : {},
        leafId: next.leafId,
        fromPrevious: changes.fromPrevious,
        summaryEndpoint: summaryEndpoint(),
      },
    }).promise;
    set({ ...resetViewState(view, get().view?.leafId === view.leafId), busy: null });
    writeDeepLink();
  } catch (error) {
    set({ busy: null, loadError: { name: get().session?.name ?? "", message: messageOf(error) } });
  }
}

export async function recoverPayload(recoveryId: string, full = false): Promise<void> {
  const current = get().recovered[recoveryId];
  if (current?.status === "loading" || (current?.status === "done" && !full)) return;
  set((state) => ({ recovered: { ...state.recovered, [recoveryId]: { status: "loading" } } }));
  try {
    const result = await client().request({ type: "recover", recoveryId, full }).promise;
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

/** True once a complete view (both panes) is on screen. */
function ready(): boolean {
  const view = get().view;
  return view !== null && view.pending !== true;
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
    originalIndex >= 0 ? engine.request({ type: "detail", pane: "original", index: originalIndex, full: false }).promise : null,
    activeIndex >= 0 ? engine.request({ type: "detail", pane: "active", index: activeIndex, full: false }).promise : null,
  ]);
  const differs = activeIndex >= 0 && (view.active.flags[activeIndex]! & 2) !== 0;
  const diff = differs ? await engine.request({ type: "diff", index: activeIndex, full: false }).promise : null;
  if (get().selected === selection) set({ detail: { original, active, diff } });
  writeDeepLink();
}

export async function showFull(pane: Pane, index: number): Promise<void> {
  const detail = await client().request({ type: "detail", pane, index, full: true }).promise;
  set((state) => (state.detail ? { detail: { ...state.detail, [pane]: detail } } : {}));
}

export async function showFullDiff(index: number): Promise<void> {
  const diff = await client().request({ type: "diff", index, full: true }).promise;
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

export async function runSearch(query: string): Promise<void> {
  if (!ready()) return;
  if (query.trim() === "") {
    set({ search: null });
    return;
  }
  const result = await client().request({ type: "search", query }).promise;
  set({ search: { query, ...result, cursor: 0 } });
  const first = result.active[0] !== undefined ? { pane: "active" as const, index: result.active[0] } : result.original[0] !== undefined ? { pane: "original" as const, index: result.original[0] } : null;
  if (first) void select(first);
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
export function stepRow(delta: 1 | -1): void {
  const { view, selected } = get();
  if (!view || !ready()) return;
  const pane = selected?.pane ?? "active";
  const count = view[pane].count;
  if (count === 0) return;
  const index = selected ? Math.min(count - 1, Math.max(0, selected.index + delta)) : 0;
  void select({ pane, index });
}

/** n/p: the next or previous active row with an omission marker. */
export function stepOmission(delta: 1 | -1): void {
  const { view, selected } = get();
  if (!view || !ready()) return;
  const flags = view.active.flags;
  const from = selected?.pane === "active" ? selected.index : selected ? view.original.aligned[selected.index] ?? -1 : -1;
  for (let i = from + delta; i >= 0 && i < flags.length; i += delta) {
    if (flags[i]! & FLAG_HAS_OMISSION) {
      void select({ pane: "active", index: i });
      return;
    }
  }
}

/** Enter: recover every marker of the selected active row. */
export async function recoverSelected(): Promise<void> {
  const { selected, view } = get();
  if (!selected || !view || !ready()) return;
  const activeIndex = selected.pane === "active" ? selected.index : view.original.aligned[selected.index] ?? -1;
  if (activeIndex < 0) return;
  const detail = await client().request({ type: "detail", pane: "active", index: activeIndex, full: false }).promise;
  await recoverAll(detail.blocks.flatMap((block) => (block.recoveryId ? [block.recoveryId] : [])));
}

export async function exportCheckpoint(): Promise<{ blob: Blob; name: string } | null> {
  if (!ready()) return null;
  set({ busy: "Exporting…" });
  try {
    return await client().request({ type: "export" }).promise;
  } finally {
    set({ busy: null });
  }
}

export function retryAfterCrash(): void {
  const { client: engine, lastSource } = get();
  if (!engine) return;
  engine.restart();
  set({ crashed: null, session: null, view: null });
  if (lastSource) void loadSource(lastSource);
}

/* Deep links: #f=<sha prefix>&s=<strategy>&l=<leaf>&m=<message id> */

export function parseDeepLink(hash: string): DeepLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const link: DeepLink = {};
  for (const [key, field] of [["f", "file"], ["m", "message"], ["s", "strategy"], ["l", "leaf"]] as const) {
    const value = params.get(key);
    if (value) link[field] = value;
  }
  return link;
}

export function setPendingLink(link: DeepLink | null): void {
  set({ pendingLink: link && Object.keys(link).length > 0 ? link : null });
}

function applyPendingLink(session: SessionSummary): void {
  const link = get().pendingLink;
  if (!link) {
    writeDeepLink();
    return;
  }
  // A link names one file: it applies when that file is loaded again, not to another.
  if (link.file && !session.sha256.startsWith(link.file)) return;
  set({ pendingLink: null });
  if (link.message) {
    void client()
      .request({ type: "locate", messageId: link.message })
      .promise.then((where) => {
        if (where.active >= 0) void select({ pane: "active", index: where.active });
        else if (where.original >= 0) void select({ pane: "original", index: where.original });
      });
  } else writeDeepLink();
}

export function deepLinkHash(state: Pick<AppState, "session" | "strategy" | "leafId" | "selected" | "view">, messageId?: string): string {
  if (!state.session) return "";
  const params = new URLSearchParams();
  params.set("f", state.session.sha256.slice(0, 16));
  params.set("s", state.strategy);
  if (state.leafId) params.set("l", state.leafId);
  if (messageId) params.set("m", messageId);
  return "#" + params.toString();
}

function writeDeepLink(): void {
  if (typeof window === "undefined" || !window.history) return;
  const state = get();
  // A link names its file by hash: none is written for a session whose hash is still being computed.
  if (!state.session?.sha256) return;
  const messageId = state.selected ? (state.detail?.[state.selected.pane] ?? state.detail?.active ?? state.detail?.original)?.id : undefined;
  const hash = deepLinkHash(state, messageId);
  if (hash && window.location.hash !== hash) window.history.replaceState(null, "", hash);
}

/* The checkride */

export function setCheckride(changes: Partial<CheckrideState>): void {
  set((state) => ({ checkride: { ...state.checkride, ...changes } }));
}

export function setCheckrideSettings(changes: Partial<CheckrideSettings>): void {
  set((state) => ({ checkride: { ...state.checkride, settings: { ...state.checkride.settings, ...changes } } }));
}

export async function runCheckride(only?: string[]): Promise<void> {
  if (!ready()) return;
  const { checkride, strategies, view } = get();
  const settings = checkride.settings;
  const chosen = only ?? (settings.strategies.length > 0 ? settings.strategies : strategies.map((s) => s.name));
  setCheckride({ running: true, error: null });
  try {
    const results = await client().request({
      type: "checkride",
      params: {
        strategies: chosen,
        reader: settings.reader,
        endpoint: settings.reader === "endpoint" ? { url: settings.endpointUrl, model: settings.model, apiKey: settings.apiKey || undefined, timeoutMs: settings.timeoutSeconds * 1000 } : undefined,
        memory: settings.memory ?? undefined,
        summaryEndpoint: summaryEndpoint(),
      },
    }).promise;
    if (get().view !== view) return; // the view changed while we ran
    const current = results.find((r) => r.strategy === view!.strategy);
    const history = [...get().checkride.history.filter((h) => !(h.round === view!.round && h.strategy === view!.strategy && h.reader === settings.reader))];
    if (current) history.push({ round: view!.round, strategy: current.strategy, reader: current.reader, passed: current.passed, asked: current.asked });
    setCheckride({ running: false, results, history });
  } catch (error) {
    setCheckride({ running: false, error: messageOf(error) });
  }
}

/** Evidence: jump to the message where the answer stands. */
export async function jumpToMessage(messageId: string): Promise<void> {
  const where = await client().request({ type: "locate", messageId }).promise;
  if (where.active >= 0) await select({ pane: "active", index: where.active });
  else if (where.original >= 0) await select({ pane: "original", index: where.original });
}

export function setRounds(changes: Partial<CheckrideState["rounds"]>): void {
  set((state) => ({ checkride: { ...state.checkride, rounds: { ...state.checkride.rounds, ...changes } } }));
}

export async function runRoundsNow(): Promise<void> {
  if (!ready()) return;
  const { checkride, strategies } = get();
  const { count, plantText, plantAt } = checkride.rounds;
  const chosen = (checkride.settings.strategies.length > 0 ? checkride.settings.strategies : strategies.map((s) => s.name)).filter((n) => n !== "recorded");
  setRounds({ running: true, error: null });
  try {
    const result = await client().request({
      type: "rounds",
      params: { strategies: chosen, rounds: count, plant: plantText.trim() ? { text: plantText.trim(), at: plantAt } : undefined },
    }).promise;
    setRounds({ running: false, result });
  } catch (error) {
    setRounds({ running: false, error: messageOf(error) });
  }
}

/* Sharing: the secret scan, the review list, the report and the redacted export */

export function setShare(changes: Partial<ShareState>): void {
  set((state) => ({ share: { ...state.share, ...changes } }));
}

export async function openShare(): Promise<void> {
  if (!ready()) return;
  setShare({ open: true, scanning: true, error: null });
  try {
    const findings = await client().request({ type: "scan" }).promise;
    const previous = get().share.masked;
    // Everything found is masked unless the user keeps it.
    setShare({ scanning: false, findings, masked: Object.fromEntries(findings.map((f) => [f.id, previous[f.id] ?? true])) });
  } catch (error) {
    setShare({ scanning: false, error: messageOf(error) });
  }
}

function maskedIds(): string[] {
  return Object.entries(get().share.masked)
    .filter(([, masked]) => masked)
    .map(([id]) => id);
}

export async function downloadReport(format: "html" | "md"): Promise<{ blob: Blob; name: string } | null> {
  if (!ready()) return null;
  const { strategies, checkride } = get();
  setShare({ busy: format === "html" ? "Writing the report…" : "Writing the scorecard…", error: null });
  try {
    const chosen = checkride.settings.strategies.length > 0 ? checkride.settings.strategies : strategies.map((s) => s.name);
    return await client().request({ type: "report", params: { strategies: chosen, format, masked: maskedIds(), memory: checkride.settings.memory ?? undefined } }).promise;
  } catch (error) {
    setShare({ error: messageOf(error) });
    return null;
  } finally {
    setShare({ busy: null });
  }
}

export async function exportRedacted(): Promise<{ blob: Blob; name: string } | null> {
  if (!ready()) return null;
  setShare({ busy: "Exporting…", error: null });
  try {
    return await client().request({ type: "exportRedacted", masked: maskedIds() }).promise;
  } catch (error) {
    setShare({ error: messageOf(error) });
    return null;
  } finally {
    setShare({ busy: null });
  }
}

export function setPresenting(presenting: boolean): void {
  set({ presenting, showHelp: false });
}

/** The model for summary slots, when the user turned it on and allowed its origin. */
function summaryEndpoint(): CompactParams["summaryEndpoint"] {
  const settings = get().checkride.settings;
  if (!settings.summaries || !settings.endpointUrl || !settings.model) return undefined;
  return { url: settings.endpointUrl, model: settings.model, apiKey: settings.apiKey || undefined, timeoutMs: settings.timeoutSeconds * 1000 };
}
