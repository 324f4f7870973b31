/**
 * A bounded cache of row projections, fetched from the worker a page at a
 * time as rows scroll into view. The main thread never holds more than
 * MAX_PAGES pages per pane, however large the session.
 *
 * Rows subscribe to the cache themselves (useSyncExternalStore), so a page
 * arriving re-renders the rows it fills and nothing else: the list, its
 * other rows and the other pane stay as they are.
 */
import type { EngineClient } from "../worker/client.ts";
import { ROW_PAGE_SIZE, type Pane, type RowProjection } from "../worker/protocol.ts";

export const PAGE_SIZE = ROW_PAGE_SIZE;
export const MAX_PAGES = 40;

type Listener = () => void;

export class RowCache {
  private pages = new Map<number, RowProjection[]>();
  private inFlight = new Set<number>();
  /** Pages still shown but due to be fetched again (see refresh). */
  private stale = new Set<number>();
  private generation = 0;
  /** The view whose rows these are (ViewSummary.id); none before the first. */
  private viewId: number | undefined;
  private listeners = new Set<Listener>();
  private notifyScheduled = false;
  /** Changes whenever rows appear or go: a snapshot for whoever depends on which rows are known. */
  version = 0;

  /** Requests sent and not yet answered, counting those whose answers will be dropped. */
  private unanswered = 0;

  constructor(
    private readonly pane: Pane,
    viewId?: number,
  ) {
    this.viewId = viewId;
  }

  /** Forget everything: the rows of another view follow (a new session or a new compaction). */
  reset(viewId: number | undefined): void {
    this.viewId = viewId;
    this.pages.clear();
    this.inFlight.clear();
    this.stale.clear();
    this.generation++;
    this.changed();
  }

  /**
   * The same rows, newly projected (the original branch once its compaction
   * lands: only the alignment to the other pane changes). What is cached
   * stays on screen and each page is fetched again as it is next needed,
   * instead of the pane going blank until then.
   */
  refresh(viewId: number): void {
    this.viewId = viewId;
    for (const page of this.pages.keys()) this.stale.add(page);
    this.inFlight.clear();
    this.generation++;
    this.changed();
  }

  /** For useSyncExternalStore: a stable function, hence an arrow property. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Puts in the first page as the worker sent it along with a load's preview. */
  seedFirstPage(rows: RowProjection[]): void {
    if (rows.length === 0) return;
    this.pages.set(0, rows);
    this.changed();
  }

  /** A row if its page is cached; reading never changes the cache. */
  /** Fetches again the pages whose rows came before the worker could count their tokens (shown meanwhile). */
  refetchLackingTokens(client: EngineClient): void {
    for (const [page, rows] of [...this.pages]) {
      if (!rows.some((row) => row.tokens === undefined)) continue;
      this.stale.add(page);
      this.ensure(client, page * PAGE_SIZE, page * PAGE_SIZE);
    }
  }

  peek(index: number): RowProjection | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  /** Fetches the pages covering [start, end] that are not cached yet; cached ones count as just used. */
  ensure(client: EngineClient, start: number, end: number): void {
    const { generation, viewId } = this;
    if (viewId === undefined) return;
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      const cached = this.pages.get(page);
      if (cached && !this.stale.has(page)) {
        // Most recently used pages go to the back of the map's order.
        this.pages.delete(page);
        this.pages.set(page, cached);
        continue;
      }
      if (this.inFlight.has(page)) continue;
      this.inFlight.add(page);
      this.unanswered++;
      client
        .request({ type: "rows", view: viewId, pane: this.pane, start: page * PAGE_SIZE, end: (page + 1) * PAGE_SIZE })
        .promise.then(
          (rows) => {
            if (generation !== this.generation) return;
            this.inFlight.delete(page);
            this.stale.delete(page);
            // Re-inserted at the back: the most recently used.
            this.pages.delete(page);
            this.pages.set(page, rows);
            while (this.pages.size > MAX_PAGES) this.evictOldest();
            this.changed();
          },
          () => {
            if (generation === this.generation) this.inFlight.delete(page);
          },
        )
        .finally(() => this.unanswered--);
    }
  }

  private evictOldest(): void {
    const oldest = this.pages.keys().next().value!;
    this.pages.delete(oldest);
    this.stale.delete(oldest);
  }

  /** Requests not answered yet (for tests that wait for the cache to settle). */
  get pending(): number {
    return this.unanswered;
  }

  get size(): number {
    return this.pages.size;
  }

  /** Pages arrive in bursts while scrolling: rows re-render once per frame, not once per page. */
  private changed(): void {
    this.version++;
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    const flush = () => {
      this.notifyScheduled = false;
      for (const listener of [...this.listeners]) listener();
    };
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(flush);
    else setTimeout(flush, 0);
  }
}
