// @vitest-environment happy-dom
/**
 * The row-page cache rows subscribe to: pages fetched once, arrivals batched
 * into one notification per frame, a reset heard by every row, and never
 * more than its bound of pages however far the user scrolls.
 */
import { beforeEach, expect, it, vi } from "vitest";
import { generatePiSession } from "../../bench/generate.ts";
import { loadTokenizer } from "../../core/tokens.ts";
import { MAX_PAGES, PAGE_SIZE, RowCache } from "../../src/store/rowCache.ts";
import { connect, loadSource, useApp } from "../../src/store/store.ts";
import type { EngineClient } from "../../src/worker/client.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
/** Every page asked for has arrived (or was dropped), and the frame that tells the rows has passed. */
const settle = async (cache?: RowCache) => {
  // Generous: on a loaded machine one page of a 12 MB session can take more than vi.waitFor's default second.
  await vi.waitFor(() => expect(cache?.pending ?? 0).toBe(0), { timeout: 20_000 });
  await nextFrame();
};

let client: EngineClient;
const viewId = () => useApp.getState().view!.id;

beforeEach(async () => {
  // Rows carry their token count once the worker's tokenizer is loaded (it loads lazily, on a clock): loaded
  // first, a row fetched before and after a refresh is the same row, whatever the machine's load.
  await loadTokenizer();
  connect(new InProcessClient());
  client = useApp.getState().client!;
  const data = readFixture("pi/badlogic__pi-mono__before-compaction.jsonl");
  await loadSource({ kind: "bytes", bytes: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer, name: "before-compaction.jsonl" });
});

describeWithFixtures("RowCache", () => {
  it("fetches each page once and tells its subscribers once per frame, however many pages arrived", async () => {
    const cache = new RowCache("original", viewId());
    let calls = 0;
    const unsubscribe = cache.subscribe(() => calls++);
    expect(cache.peek(0)).toBeUndefined();
    cache.ensure(client, 0, 2 * PAGE_SIZE + 5);
    cache.ensure(client, 0, 2 * PAGE_SIZE + 5); // in flight: not asked again
    await settle(cache);
    expect(cache.size).toBe(3);
    expect(calls).toBe(1);
    const row = cache.peek(PAGE_SIZE + 1);
    expect(row?.index).toBe(PAGE_SIZE + 1);
    // Cached pages are not fetched again and nothing is announced.
    const version = cache.version;
    cache.ensure(client, 0, PAGE_SIZE);
    await settle(cache);
    expect(cache.version).toBe(version);
    expect(calls).toBe(1);
    expect(cache.peek(PAGE_SIZE + 1)).toBe(row);
    unsubscribe();
  });

  it("a reset empties it, drops answers still in flight and is heard by every row", async () => {
    const cache = new RowCache("active", viewId());
    let calls = 0;
    cache.subscribe(() => calls++);
    cache.ensure(client, 0, 10);
    cache.reset(viewId());
    await settle(cache);
    expect(cache.size).toBe(0);
    expect(cache.peek(0)).toBeUndefined();
    expect(calls).toBe(1);
  });

  it("a refresh keeps the rows on screen until each page is fetched again, and drops answers in flight", async () => {
    const cache = new RowCache("original", viewId());
    cache.ensure(client, 0, PAGE_SIZE + 1);
    await settle(cache);
    const before = cache.peek(3);
    expect(before).toBeDefined();
    cache.ensure(client, 2 * PAGE_SIZE, 2 * PAGE_SIZE); // in flight when the refresh comes: its answer is dropped
    cache.refresh(viewId());
    expect(cache.peek(3)).toBe(before);
    await settle(cache);
    expect(cache.peek(2 * PAGE_SIZE)).toBeUndefined();
    expect(cache.peek(3)).toBe(before); // nothing asked for it yet: the old row stays
    cache.ensure(client, 0, 5);
    await settle(cache);
    const after = cache.peek(3);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(after).toEqual(before); // the same session and view here: the same row, fetched anew
    // Page 1 is still the old one until it is needed; fetched once, it is fresh and not fetched again.
    const versionBefore = cache.version;
    cache.ensure(client, PAGE_SIZE, PAGE_SIZE);
    await settle(cache);
    expect(cache.version).toBe(versionBefore + 1);
    cache.ensure(client, 0, PAGE_SIZE + 1);
    await settle(cache);
    expect(cache.version).toBe(versionBefore + 1);
  });

  it("after a preview the original pane keeps its rows when the load lands", async () => {
    const { rowCaches } = useApp.getState();
    const data = readFixture("composed/pi-v3-tree.jsonl");
    const shown: (number | undefined)[] = [];
    const loading = loadSource({ kind: "bytes", bytes: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer, name: "pi-v3-tree.jsonl" });
    // Watch the original pane's first row through the load: once shown, it never goes blank.
    const unsubscribe = rowCaches.original.subscribe(() => shown.push(rowCaches.original.peek(0)?.index));
    await loading;
    await settle(rowCaches.original);
    unsubscribe();
    const firstShown = shown.findIndex((index) => index === 0);
    expect(firstShown).toBeGreaterThanOrEqual(0);
    expect(shown.slice(firstShown).every((index) => index === 0)).toBe(true);
  });

  it("holds at most its bound of pages, dropping the least recently used", async () => {
    // A session long enough for more pages than the bound.
    const generated = new TextEncoder().encode(generatePiSession(12e6));
    await loadSource({ kind: "bytes", bytes: generated.buffer as ArrayBuffer, name: "generated.jsonl" });
    const cache = new RowCache("original", viewId());
    const pages = Math.ceil(useApp.getState().view!.original.count / PAGE_SIZE);
    expect(pages).toBeGreaterThan(MAX_PAGES);
    for (let page = 0; page < pages; page++) {
      cache.ensure(client, page * PAGE_SIZE, page * PAGE_SIZE);
      // Page 0 stays in use all along (as the rows on screen would): it must survive.
      cache.ensure(client, 0, 0);
      await settle(cache);
    }
    expect(cache.size).toBe(MAX_PAGES);
    expect(cache.peek(0)).toBeDefined();
    expect(cache.peek(PAGE_SIZE)).toBeUndefined();
    expect(cache.peek((pages - 1) * PAGE_SIZE)?.index).toBe((pages - 1) * PAGE_SIZE);
  });
});
