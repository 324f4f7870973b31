// @vitest-environment happy-dom
/**
 * Cancelling a load after its preview, and loads and cancels in quick
 * succession: the screen always ends showing one view whole (header, stats,
 * both panes, the selection), and every row and detail it asks for belongs
 * to that view.
 */
import { beforeEach, expect, it, vi } from "vitest";
import { cancelLoad, connect, loadSource, select, useApp, type AppState } from "../../src/store/store.ts";
import type { EngineClient } from "../../src/worker/client.ts";
import type { Pane } from "../../src/worker/protocol.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { describeWithFixtures, fixtureSource } from "../helpers/fixtures.ts";

const bytes = fixtureSource;

const state = () => useApp.getState();

/** What the screen shows, by identity: a restored screen is the very same objects. */
function screen(s: AppState) {
  const { session, view, sessionSerial, selected, detail, strategy, leafId, recovered, search, checkride } = s;
  return { session, view, sessionSerial, selected, detail, strategy, leafId, recovered, search, checkride };
}

/** The rows the panes would fetch now, through the same caches the panes use. */
async function rowsOnScreen(pane: Pane, count: number) {
  const cache = state().rowCaches[pane];
  cache.ensure(state().client!, 0, count - 1);
  await vi.waitFor(() => expect(cache.pending).toBe(0));
  return Array.from({ length: count }, (_, i) => cache.peek(i));
}

/** The screen's invariants: one view, whole, and every row and detail of it from the engine's same view. */
async function expectConsistent() {
  const { session, view, loading, beforePreview } = state();
  expect(loading).toBeNull();
  expect(beforePreview).toBeNull();
  expect(view?.pending).toBeFalsy();
  const leaf = session!.leaves.find((l) => l.id === view!.leafId)!;
  expect(view!.original.count).toBe(leaf.messages);
  const original = await rowsOnScreen("original", view!.original.count);
  const active = await rowsOnScreen("active", view!.active.count);
  expect(original.every((row) => row !== undefined)).toBe(true);
  expect(active.every((row) => row !== undefined)).toBe(true);
  // Aligned rows name the same message; selecting a row opens that message.
  active.forEach((row, i) => {
    if (row!.sourceRow >= 0) expect(original[row!.sourceRow]!.id, `active row ${i}`).toBe(row!.id);
  });
  await select({ pane: "original", index: 0 });
  expect(state().detail?.original?.id).toBe(original[0]!.id);
}

beforeEach(async () => {
  connect(new InProcessClient());
  await loadSource(bytes("composed/pi-v3-tree.jsonl"));
  await select({ pane: "active", index: 2 });
});

describeWithFixtures("cancel after the preview", () => {
  it("puts back everything the screen showed: header, stats, both panes, the selection", async () => {
    const before = screen(state());
    const firstRow = (await rowsOnScreen("original", 1))[0]!.id;
    let previewed = false;
    const unsubscribe = useApp.subscribe((s) => {
      if (!s.view?.pending) return;
      previewed = true;
      unsubscribe();
      cancelLoad();
    });
    await loadSource(bytes("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    expect(previewed).toBe(true);
    expect(screen(state())).toEqual(before);
    expect(state().view).toBe(before.view);
    expect(state().selected).toBe(before.selected);
    expect(state().detail).toBe(before.detail);
    expect((await rowsOnScreen("original", 1))[0]!.id).toBe(firstRow);
    await expectConsistent();
  });

  it("a load that finished in the engine before the cancel reached it still leaves the previous session whole", async () => {
    const inner = state().client!;
    let finished = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Holds back the load's answer, as a worker's reply still on its way would be.
    const late: EngineClient = {
      request: (request, onProgress) => {
        const pending = inner.request(request, onProgress);
        if (request.type !== "load") return pending;
        return { id: pending.id, promise: pending.promise.then(async (result) => ((finished = true), await gate, result)) };
      },
      cancel: (id) => inner.cancel(id),
      onCrash: () => {},
      restart: () => {},
    };
    useApp.setState({ client: late });
    const before = screen(state());
    const loading = loadSource(bytes("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    await vi.waitFor(() => expect(finished).toBe(true));
    cancelLoad();
    release();
    await loading;
    expect(screen(state())).toEqual(before);
    await expectConsistent();
    expect(state().session!.name).toBe("pi-v3-tree.jsonl");
  });
});

describeWithFixtures("loads and cancels in quick succession", () => {
  const files = ["composed/openai-chat.json", "pi/JohnnyLai92__pi-mono__6edf3497.jsonl", "composed/anthropic-messages.json", "composed/pi-v3-tree.jsonl"];

  it.each([1, 2, 3, 4, 5])("sequence %i ends on one consistent view", async (seed) => {
    // A fixed pseudo-random sequence per seed: loads, cancels and short pauses, nothing awaited in between.
    let x = seed * 2654435761;
    const next = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
    const started: Promise<void>[] = [];
    let lastLoad: string | null = null;
    for (let step = 0; step < 12; step++) {
      const op = next(4);
      if (op <= 1) {
        lastLoad = files[next(files.length)]!;
        started.push(loadSource(bytes(lastLoad)));
      } else if (op === 2) {
        cancelLoad();
        lastLoad = null;
      } else {
        for (let i = next(5); i >= 0; i--) await Promise.resolve();
      }
    }
    await Promise.all(started);
    await expectConsistent();
    // A last load that was not cancelled is what the screen shows.
    if (lastLoad) expect(state().session!.name).toBe(lastLoad.split("/").pop());
  });
});
