/**
 * The session engine: it owns the loaded session and its views, so that it
 * runs unchanged in the Web Worker, in component tests and in Node. Callers
 * name the view they mean (ViewSummary.id) and get projections; what a
 * request does with a view lives in services/, the request → handler map in
 * handlers.ts.
 */
import { isSqliteFile } from "../../core/sqlite/engine.ts";
import { openDatabaseSession } from "./services/database.ts";
import { fileSha256 } from "../../core/hash.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { buildPaneModel, paneGeometry, projectRow, type PaneModel } from "./projection.ts";
import {
  ROW_PAGE_SIZE,
  type CompactParams,
  type FollowParams,
  type FollowResult,
  type LoadSource,
  type Pane,
  type ResponseMap,
  type RowProjection,
  type StrategyOption,
  type ViewSummary,
} from "./protocol.ts";
import { readDatabaseWithLog, readSessionFiles, readSource } from "./read-source.ts";
import { SessionError } from "../../core/model.ts";
import { rowsOf } from "./services/inspect.ts";
import { withRowTokens } from "./services/tokens.ts";
import { buildAuditView } from "./services/audit.ts";
import { adoptFollowedSession, FileFollower } from "./services/follow.ts";
import { TransparentGrowth } from "../../core/strategies/transparent-growth.ts";
import { withFetch, type Fetch } from "./services/evaluate.ts";
import { summarizeSession } from "./summary.ts";
import type { TaskContext } from "./task.ts";
import { buildView, type LoadedSession, type Screen } from "./view.ts";
import { ViewCache, reuseView, viewKey } from "./view-cache.ts";

export { CancelledError, type TaskContext } from "./task.ts";

/**
 * Hashes a local file somewhere else while this thread parses and compacts it
 * (WebCrypto digests on the calling thread: 0.5–0.7 s for 100 MB here).
 * `cancel` stops it; a result that fails is replaced by hashing here.
 */
export type FileHasher = (file: File) => { result: Promise<string>; cancel(): void };

export class SessionEngine {
  constructor(
    /** How the endpoint reader reaches the model (the worker proxies it through the page). */
    readonly fetchImpl: Fetch = (...args) => globalThis.fetch(...args),
    /** Where a local file is hashed in parallel; without one it is hashed here after the preview. */
    private readonly hashFile?: FileHasher,
  ) {}

  private nextViewId = 1;
  /** The newest view. */
  private current?: Screen;
  /**
   * The view the page last asked about, kept while a newer one exists: a load the page
   * cancelled may have finished here first, and the page then still shows (and asks about) this one.
   */
  private shown?: Screen;
  /** The original pane of a session still being compacted, under the id its view will have. */
  private preview?: { id: number; model: PaneModel };

  strategies(): StrategyOption[] {
    return STRATEGIES.map(({ name, label, description }) => ({ name, label, description }));
  }

  async load(source: LoadSource, params: Omit<CompactParams, "fromPrevious">, task: TaskContext, databaseSession?: string): Promise<ResponseMap["load"]> {
    const started = performance.now();
    const id = this.nextViewId++;
    // JSON Lines are decoded and split into records slice by slice as the bytes come in
    // (a fetched demo as it downloads; a local file, after its one read, between cancel points).
    const loader = new StreamingSessionLoader();
    const withLog = source.kind === "files" ? await readDatabaseWithLog(source, task) : null;
    const several = source.kind === "files" && !withLog ? await readSessionFiles(source, task) : null;
    const { bytes, name } = withLog ?? several ?? (await readSource(source, task, (chunk) => loader.push(chunk)));
    const read = performance.now();
    task.checkCancelled();
    task.progress({ stage: "parsing", loaded: bytes.length, total: bytes.length });
    // A database (OpenCode's store) is opened with SQLite, with its -wal where it came with it; everything else is what the loader read.
    if (withLog && !isSqliteFile(bytes)) throw new SessionError(0, `${name} came with a -wal file, which belongs to a SQLite database, and is not one`);
    const database = !several && isSqliteFile(bytes) ? await openDatabaseSession(bytes, databaseSession, withLog?.wal) : null;
    const session = several?.session ?? database?.session ?? loader.finish(bytes);
    task.checkCancelled();
    const leafId = params.leafId !== null && session.byId.has(params.leafId) ? params.leafId : session.defaultLeafId;
    const preview = { id, model: buildPaneModel(session.branch(leafId)) };
    const timings = { readMs: Math.round(read - started), parseMs: Math.round(performance.now() - read) };
    // The first rows go out before the file's hash: on a worker WebCrypto digests on this very thread.
    const previewSummary = { ...summarizeSession(session, name, bytes.length, "", timings), ...(database ? { database: database.database } : {}) };
    this.preview = preview;
    let parallelHash: ReturnType<FileHasher> | undefined;
    try {
      task.progress({
        stage: "compacting",
        loaded: bytes.length,
        total: bytes.length,
        preview: {
          viewId: id,
          session: previewSummary,
          original: paneGeometry(preview.model, null, new Int32Array(preview.model.messages.length).fill(-1)),
          firstRows: this.rows(id, "original", 0, ROW_PAGE_SIZE),
          strategy: params.strategy,
          leafId,
        },
      });
      // A local file is hashed on another thread while this one compacts (started only now:
      // during the read and the parse both threads would compete for the same cores);
      // anything else is hashed here.
      parallelHash = source.kind === "file" ? this.startParallelHash(source.file) : undefined;
      const sha256Here = parallelHash ? undefined : await fileSha256(bytes);
      task.checkCancelled();
      // Kept for Follow (only a file opened through a handle can be followed): its first look can take this
      // view's work over instead of making it again (see follow).
      const growth = source.kind === "file" && source.handle ? new TransparentGrowth() : undefined;
      const view = await buildView(
        session,
        { ...previewSummary, sha256: sha256Here ?? "" },
        {
          id,
          params: { ...params, leafId },
          round: 0,
          originalModel: preview.model,
          summaryEndpoint: withFetch(params.summaryEndpoint, this.fetchImpl),
          growth,
        },
      );
      task.checkCancelled();
      const sha256 = sha256Here ?? (await parallelHash!.result.catch(() => fileSha256(bytes)));
      task.checkCancelled();
      view.checkpoint.source.sha256 = sha256;
      const summary = { ...previewSummary, sha256 };
      // Only a complete load replaces the session the engine serves.
      const loaded: LoadedSession = { session, summary, findings: new Map(), handle: source.kind === "file" ? source.handle : undefined, growth };
      const key = viewKey({ ...params, leafId });
      if (key !== undefined) this.views.put(loaded, key, view);
      this.replace({ loaded, view });
      return { session: summary, view: view.summary };
    } finally {
      parallelHash?.cancel();
      if (this.preview === preview) this.preview = undefined;
    }
  }

  /** The parallel hash, or undefined where it cannot start (no nested workers): then this thread hashes. */
  private startParallelHash(file: File): ReturnType<FileHasher> | undefined {
    try {
      const started = this.hashFile?.(file);
      // Awaited only after the compaction: a failure meanwhile must not count as unhandled.
      started?.result.catch(() => {});
      return started;
    } catch {
      return undefined;
    }
  }

  /**
   * A new view of the session behind `viewId`; `fromPrevious` recompacts that view's checkpoint.
   * A first-round view made without a model is kept per session (a few), so switching back to a
   * strategy, branch or cap seen before is instant.
   */
  async compact(viewId: number, params: CompactParams): Promise<ViewSummary> {
    const { loaded, view } = this.screen(viewId);
    const key = viewKey(params);
    const cached = key !== undefined ? this.views.get(loaded, key) : undefined;
    if (cached) {
      const next = reuseView(cached, this.nextViewId++);
      this.replace({ loaded, view: next });
      return next.summary;
    }
    const next = await buildView(loaded.session, loaded.summary, {
      id: this.nextViewId++,
      params,
      previous: params.fromPrevious ? view.checkpoint : undefined,
      round: params.fromPrevious ? view.round + 1 : 0,
      summaryEndpoint: withFetch(params.summaryEndpoint, this.fetchImpl),
    });
    if (key !== undefined) this.views.put(loaded, key, next);
    this.replace({ loaded, view: next });
    return next.summary;
  }

  /**
   * One look at the file of the session behind `viewId` (services/follow.ts). When it grew (or was
   * rewritten), the session is made again from what was read and the view on screen with it: the
   * same strategy, cap and branch (the newest branch stays the newest), or the audit of the same
   * compaction; the compactions the file recorded since are named with the file's figures.
   */
  async follow(viewId: number, params: FollowParams, task: TaskContext): Promise<FollowResult> {
    const { loaded, view: shown } = this.screen(viewId);
    if (!loaded.handle) throw new Error("this session was not opened from a file the browser can read again: choose Follow… and pick the file (Chrome and Edge can follow a file)");
    const follower = (loaded.follower ??= new FileFollower(loaded.handle));
    const firstLook = follower.bytes === 0;
    const started = performance.now();
    const change = await follower.look(task);
    const read = performance.now();
    if (change.kind === "unchanged") return { change: "unchanged", bytes: follower.bytes };
    const sha256 = follower.sha256();
    // The first look reads the whole file: nothing changed since it was opened when the hash is the same.
    if (firstLook && change.kind === "grew" && sha256 === loaded.summary.sha256) {
      adoptFollowedSession(loaded, follower.session(), params.leafId ?? loaded.session.defaultLeafId, shown);
      return { change: "unchanged", bytes: follower.bytes };
    }
    task.checkCancelled();
    const session = follower.session();
    const parsed = performance.now();
    const summary = summarizeSession(session, loaded.summary.name, follower.bytes, sha256, { readMs: Math.round(read - started), parseMs: Math.round(parsed - read) });
    const oldLeaf = params.leafId ?? loaded.session.defaultLeafId;
    const leafId = params.leafId === null || params.leafId === loaded.session.defaultLeafId || !session.byId.has(params.leafId) ? session.defaultLeafId : params.leafId;
    // Each look's transparent view goes on from the one before: only what is new is planned and hashed.
    const growth = loaded.growth ?? new TransparentGrowth();
    const next: LoadedSession = { session, summary, findings: new Map(), handle: loaded.handle, follower, growth };
    const base = await buildView(session, summary, {
      id: this.nextViewId++,
      params: { strategy: params.strategy, options: params.options, leafId },
      round: 0,
      growth,
      previousPanes: loaded.panes,
    });
    next.panes = { original: base.original, active: base.active, activeToOriginal: base.activeToOriginal, differs: base.differs };
    let view = base;
    if (params.auditIndex !== null) {
      try {
        view = buildAuditView(session, base, params.auditIndex, this.nextViewId++);
      } catch {
        // That compaction is gone (the file was rewritten): the strategy view stands.
      }
    }
    task.checkCancelled();
    this.replace({ loaded: next, view });
    const known = change.kind === "grew" ? loaded.session.recordedCompactions(oldLeaf).length : Number.POSITIVE_INFINITY;
    const newCompactions = session
      .recordedCompactions(leafId)
      .filter((c) => c.index > known)
      .map((c) => ({
        index: c.index,
        line: c.line,
        kind: c.kind,
        trigger: c.trigger,
        tokensBefore: c.tokensBefore,
        tokensAfter: c.tokensAfter,
        dropped: c.droppedMessageIds.length,
      }));
    return {
      change: change.kind,
      why: change.kind === "rewritten" ? change.why : null,
      bytes: follower.bytes,
      addedBytes: change.kind === "grew" ? change.bytes : follower.bytes,
      readMs: Math.round(read - started),
      rebuildMs: Math.round(performance.now() - read),
      session: summary,
      view: view.summary,
      newCompactions,
    };
  }

  /** First-round views of the loaded session, by what made them (see compact). */
  private readonly views = new ViewCache();

  /** The audit view of recorded compaction #index of the branch behind `viewId`. */
  auditView(viewId: number, index: number): ViewSummary {
    const { loaded, view } = this.screen(viewId);
    const next = buildAuditView(loaded.session, view, index, this.nextViewId++);
    this.replace({ loaded, view: next });
    return next.summary;
  }

  rows(viewId: number, pane: Pane, start: number, end: number): RowProjection[] {
    const preview = this.preview;
    if (preview?.id === viewId) {
      // A session is loading: its original pane is what the screen shows.
      const out: RowProjection[] = [];
      if (pane === "original") for (let i = Math.max(0, start); i < Math.min(end, preview.model.messages.length); i++) out.push(projectRow(preview.model, i, -1, false));
      return out;
    }
    const { loaded, view } = this.screen(viewId);
    return withRowTokens(rowsOf(view, pane, start, end), pane === "original" ? view.original : view.active, loaded.session);
  }

  /** The view a request names, with its session. */
  screen(viewId: number): Screen {
    if (this.current?.view.summary.id === viewId) {
      // The page has moved on to the newest view: the one it showed before can go.
      this.shown = this.current;
      return this.current;
    }
    if (this.shown?.view.summary.id === viewId) return this.shown;
    throw new Error(this.current ? "that view is no longer shown (the session on screen changed)" : "no session is loaded");
  }

  private replace(next: Screen): void {
    // The page may still be showing the view it last asked about: that one stays until it asks about another.
    this.shown ??= this.current;
    this.current = next;
  }
}
