/**
 * Opening a session and making views of it: load (with its preview and its
 * cancel), recompaction, crash recovery. A load that is cancelled or fails
 * puts back everything the screen showed before its preview.
 */
import { EngineError, type EngineClient } from "../worker/client.ts";
import type { LoadPreview, LoadSource, SessionSummary, ViewSummary } from "../worker/protocol.ts";
import { checkrideForView } from "./checkride.ts";
import { writeDeepLink } from "./deep-links.ts";
import { jumpToMessage, requestScroll } from "./navigation.ts";
import { compactionToOpen, type LoadIntent } from "./opening.ts";
import { noteCheckrideCleared } from "./tokens.ts";
import { client, get, initialShare, messageOf, ready, resetState, set, summaryEndpoint, viewId, type AppState, type ScreenState } from "./state.ts";

export function connect(engine: EngineClient): void {
  resetState(engine);
  engine.onCrash((message) => {
    if (message === "restarted") return;
    // The views a load's preview would put back lived in the engine that is gone.
    set({ crashed: message, loading: null, busy: null, beforePreview: null });
  });
  engine.request({ type: "strategies" }).promise.then(
    (strategies) => set({ strategies }),
    () => undefined,
  );
}

export function compactOptions(proseCap = get().proseCap): Record<string, unknown> {
  return proseCap !== null ? { maxProseChars: proseCap } : {};
}

/**
 * State for a new view. `sameOriginal`: the original pane lists the same rows
 * as before (same session and branch), so they stay on screen while they are
 * fetched again with their new alignment instead of the pane going blank.
 */
export function showView(view: ViewSummary, sameOriginal = false): Partial<AppState> {
  const { rowCaches } = get();
  if (sameOriginal) rowCaches.original.refresh(view.id);
  else rowCaches.original.reset(view.id);
  rowCaches.active.reset(view.id);
  const checkride = { ...get().checkride, ...checkrideForView(view, get().view) };
  // Auditing a compaction, the summary that replaced what left is what the user came to read: it opens whole.
  const summaryRow = view.audit?.summaryRow ?? -1;
  const expandedThinking: Record<string, boolean> = summaryRow >= 0 ? { [`active:${summaryRow}:0`]: true } : {};
  return { view, recovered: {}, expandedThinking, selected: null, detail: null, search: null, checkride };
}

function screenOf(state: AppState): ScreenState {
  const { session, sessionSerial, sessionRevision, view, strategy, proseCap, leafId, recovered, expandedThinking, selected, detail, search, checkride } = state;
  return { session, sessionSerial, sessionRevision, view, strategy, proseCap, leafId, recovered, expandedThinking, selected, detail, search, checkride };
}

function pendingView(preview: LoadPreview): ViewSummary {
  const empty = { count: 0, heights: new Uint16Array(), roles: new Uint8Array(), flags: new Uint8Array(), aligned: new Int32Array() };
  return {
    id: preview.viewId,
    pending: true,
    strategy: preview.strategy,
    options: compactOptions(),
    leafId: preview.leafId,
    stats: { proseSegments: 0, proseVerbatim: 0, payloads: 0, originalChars: 0, activeChars: 0, metadataFields: 0, capped: 0 },
    tokens: { tokenizer: "", exact: false, original: 0, active: 0, estimated: { original: 0, active: 0 }, composition: [], usage: null },
    round: 0,
    hasPrevious: false,
    compactMs: 0,
    original: preview.original,
    active: empty,
  };
}

/** The load's preview replaces the screen; what it showed is kept to be put back. */
function showPreview(preview: LoadPreview): void {
  const beforePreview = screenOf(get());
  const { rowCaches } = get();
  const shown = showView(pendingView(preview));
  // Seeded before the panes render the preview, so its first rows need no request.
  rowCaches.original.seedFirstPage(preview.firstRows);
  set({ ...shown, beforePreview, session: preview.session, sessionSerial: get().sessionSerial + 1, sessionRevision: 0 });
}

/** Everything the screen showed before the preview, back as it was: header, stats, both panes, the selection. */
function restoreBeforePreview(): void {
  const screen = get().beforePreview;
  if (!screen) return;
  const { rowCaches } = get();
  // The rows are fetched again, of the view they belong to (the engine still holds it).
  rowCaches.original.reset(screen.view?.id);
  rowCaches.active.reset(screen.view?.id);
  set({ ...screen, beforePreview: null });
  if (screen.selected) requestScroll(screen.selected.pane, screen.selected.index);
}

/** Loads a file, a demo or bytes; a load in progress is cancelled first. */
export async function loadSource(source: LoadSource, intent: LoadIntent = {}): Promise<void> {
  const engine = client();
  const previous = get().loading;
  if (previous) engine.cancel(previous.id);
  restoreBeforePreview();
  const name = source.kind === "file" ? source.file.name : source.name;
  const link = get().pendingLink;
  const pending = engine.request(
    {
      type: "load",
      source,
      params: { strategy: link?.strategy ?? get().strategy, options: compactOptions(), leafId: link?.leaf ?? null },
      ...(intent.databaseSession !== undefined ? { databaseSession: intent.databaseSession } : {}),
    },
    (progress) => {
      const loading = get().loading;
      if (loading?.id !== pending.id) return;
      const { preview, ...rest } = progress;
      set({ loading: { ...loading, progress: rest } });
      // The session is read: show its original branch while the compaction runs.
      if (preview) showPreview(preview);
    },
  );
  set({ loading: { id: pending.id, name, progress: null }, loadError: null });
  try {
    const { session, view: loaded } = await pending.promise;
    if (get().loading?.id !== pending.id) return;
    // Asked before the screen changes, so it goes straight from the preview to the audit, never through the strategy view.
    // A link of this very file that names the compaction the user was auditing opens on it again.
    const linked = link?.compaction !== undefined && (!link.file || session.sha256.startsWith(link.file)) ? link.compaction : null;
    const view = await auditViewOr(loaded, linked ?? compactionToOpen(source, session, link !== null, intent));
    if (get().loading?.id !== pending.id) return;
    const previewed = get().beforePreview !== null;
    // After a preview the original pane already shows this branch: keep it on screen (an audit's "before" is other rows).
    const shown = showView(view, previewed && view === loaded && get().view?.leafId === view.leafId);
    set({
      ...shown,
      beforePreview: null,
      share: initialShare,
      checkride: { ...shown.checkride!, history: [], cache: {}, cleared: null },
      loading: null,
      session,
      lastSource: source,
      sessionSerial: previewed ? get().sessionSerial : get().sessionSerial + 1,
      sessionRevision: previewed ? get().sessionRevision : 0,
      strategy: loaded.strategy,
      leafId: loaded.leafId,
      crashed: null,
      showWarnings: false,
    });
    noteCheckrideCleared(null);
    applyPendingLink(session);
  } catch (error) {
    if (get().loading?.id !== pending.id) return;
    restoreBeforePreview();
    const engineError = error instanceof EngineError ? error : undefined;
    // The previous session stays: only the error is new.
    set({ loading: null, loadError: engineError?.cancelled ? null : { name, message: messageOf(error), line: engineError?.line } });
  }
}

/** The audit view of compaction #index of a view just loaded; the view itself when none is asked or it cannot be built. */
async function auditViewOr(view: ViewSummary, index: number | null): Promise<ViewSummary> {
  if (index === null) return view;
  try {
    return await client().request({ type: "auditView", view: view.id, index }).promise;
  } catch {
    // The strategy view is still a true view of the session; the timeline offers the audit again.
    return view;
  }
}

export function cancelLoad(): void {
  const loading = get().loading;
  if (!loading) return;
  client().cancel(loading.id);
  restoreBeforePreview();
  set({ loading: null });
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
  if (link.message) void jumpToMessage(link.message);
  else writeDeepLink();
}

export async function recompact(changes: { strategy?: string; proseCap?: number | null; leafId?: string | null; fromPrevious?: boolean }): Promise<void> {
  if (!get().session || !ready()) return;
  const next = {
    strategy: changes.strategy ?? get().strategy,
    proseCap: changes.proseCap !== undefined ? changes.proseCap : get().proseCap,
    leafId: changes.leafId !== undefined ? changes.leafId : get().leafId,
  };
  const from = viewId();
  const hadResults = get().checkride.results !== null;
  const branchChanged = changes.leafId !== undefined && changes.leafId !== get().leafId;
  set({ ...next, busy: changes.fromPrevious ? "Compacting again…" : "Compacting…", ...(branchChanged ? { branchSerial: get().branchSerial + 1 } : {}) });
  try {
    const view = await client().request({
      type: "compact",
      view: from,
      params: { strategy: next.strategy, options: compactOptions(next.proseCap), leafId: next.leafId, fromPrevious: changes.fromPrevious, summaryEndpoint: summaryEndpoint() },
    }).promise;
    set({ ...showView(view, get().view?.leafId === view.leafId), busy: null });
    noteCheckrideCleared(hadResults ? clearedBecause(changes) : null);
    writeDeepLink();
  } catch (error) {
    set({ busy: null, loadError: { name: get().session?.name ?? "", message: messageOf(error) } });
  }
}

/** Why a new view made the checkride results on screen stale, in the user's words. */
function clearedBecause(changes: { strategy?: string; proseCap?: number | null; leafId?: string | null; fromPrevious?: boolean }): string {
  if (changes.fromPrevious) return "the context was compacted again (round 2+)";
  if (changes.strategy !== undefined) return "the strategy changed";
  if (changes.proseCap !== undefined) return "the prose cap changed";
  if (changes.leafId !== undefined) return "the branch changed";
  return "the active context changed";
}

/** Another session of the database on screen (OpenCode's opencode.db holds every session of the machine): the same file, read again. */
export function openDatabaseSession(id: string): void {
  const source = get().lastSource;
  if (source) void loadSource(source, { databaseSession: id });
}

export function retryAfterCrash(): void {
  const { client: engine, lastSource } = get();
  if (!engine) return;
  engine.restart();
  set({ crashed: null, session: null, view: null });
  if (lastSource) void loadSource(lastSource);
}

export function dismissLoadError(): void {
  set({ loadError: null });
}

export function setShowWarnings(showWarnings: boolean): void {
  set({ showWarnings });
}
