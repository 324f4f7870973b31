/**
 * A bounded cache of row projections, fetched from the worker a page at a
 * time as rows scroll into view. The main thread never holds more than
 * MAX_PAGES pages per pane, however large the session.
 */
import type { EngineClient } from "../worker/client.ts";
import type { Pane, RowProjection } from "../worker/protocol.ts";

export const PAGE_SIZE = 100;
const MAX_PAGES = 40;

export class RowCache {
  private pages = new Map<number, RowProjection[]>();
  private inFlight = new Set<number>();
  private generation = 0;

  constructor(
    private readonly pane: Pane,
    private readonly onChange: () => void,
  ) {}

  /** Forget everything (a new session or a new compaction). */
  reset(): void {
    this.pages.clear();
    this.inFlight.clear();
    this.generation++;
  }

  /** Without counting as a use (for height lookups, which touch many rows). */
  peek(index: number): RowProjection | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  get(index: number): RowProjection | undefined {
    const page = this.pages.get(Math.floor(index / PAGE_SIZE));
    if (!page) return undefined;
    // Most recently used pages go to the back of the map's order.
    const key = Math.floor(index / PAGE_SIZE);
    this.pages.delete(key);
    this.pages.set(key, page);
    return page[index % PAGE_SIZE];
  }

  /** Fetches the pages covering [start, end] that are not cached yet. */
  ensure(client: EngineClient, start: number, end: number): void {
    const generation = this.generation;
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      if (this.pages.has(page) || this.inFlight.has(page)) continue;
      this.inFlight.add(page);
      client
        .request({ type: "rows", pane: this.pane, start: page * PAGE_SIZE, end: (page + 1) * PAGE_SIZE })
        .promise.then(
          (rows) => {
            if (generation !== this.generation) return;
            this.inFlight.delete(page);
            this.pages.set(page, rows);
            while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value!);
            this.onChange();
          },
          () => {
            if (generation === this.generation) this.inFlight.delete(page);
          },
        );
    }
  }

  get size(): number {
    return this.pages.size;
  }
}
