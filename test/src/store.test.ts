// @vitest-environment happy-dom
/** The zustand store driving the in-process engine: loads, errors, recovery, filters, keyboard steps, links, crashes. */
import { beforeEach, expect, it, vi } from "vitest";
import {
  connect,
  deepLinkHash,
  loadSource,
  openAudit,
  parseDeepLink,
  recompact,
  recoverPayload,
  retryAfterCrash,
  select,
  setPendingLink,
  setFilters,
  stepOmission,
  stepRow,
  useApp,
  visibleRows,
} from "../../src/store/store.ts";
import type { EngineClient } from "../../src/worker/client.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { describeWithFixtures, fixtureSource } from "../helpers/fixtures.ts";

const bytes = fixtureSource;

const state = () => useApp.getState();
const rowCaches = () => state().rowCaches;

beforeEach(() => {
  connect(new InProcessClient());
});

describeWithFixtures("store", () => {
  it("loads a session: summary, view, strategy and leaf", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    expect(state().loading).toBeNull();
    expect(state().session?.name).toBe("pi-v3-tree.jsonl");
    expect(state().view?.active.count).toBe(18);
    expect(state().leafId).toBe("c0000010");
    expect(state().strategy).toBe("transparent");
    expect(state().strategies.map((s) => s.name)).toContain("transparent");
  });

  it("while the compaction runs, the original pane's first page is already cached and the session keeps one serial", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    const serialBefore = state().sessionSerial;
    const seen: { pending: boolean; firstRow: string | undefined; sha256: string | undefined; serial: number }[] = [];
    const unsubscribe = useApp.subscribe((s) => {
      if (s.view?.pending) seen.push({ pending: true, firstRow: rowCaches().original.peek(0)?.id, sha256: s.session?.sha256, serial: s.sessionSerial });
    });
    await loadSource(bytes("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"));
    unsubscribe();
    const preview = seen.at(-1)!;
    expect(preview.firstRow).toBeDefined();
    expect(preview.sha256).toBe("");
    expect(preview.serial).toBe(serialBefore + 1);
    // The final result is the same session: same serial, now with its hash.
    expect(state().sessionSerial).toBe(serialBefore + 1);
    expect(state().session?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a bad file sets loadError with the line and keeps the previous session", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    const before = state().view;
    await loadSource({ kind: "bytes", bytes: new TextEncoder().encode("not json\n").buffer as ArrayBuffer, name: "bad.jsonl" });
    expect(state().loadError).toMatchObject({ name: "bad.jsonl", line: 1 });
    expect(state().session?.name).toBe("pi-v3-tree.jsonl");
    expect(state().view).toBe(before);
  });

  it("recovers a payload into the recovered map, verified", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    await recoverPayload("c0000004#/blocks");
    const recovered = state().recovered["c0000004#/blocks"];
    expect(recovered?.status).toBe("done");
    expect(recovered?.status === "done" && recovered.result.verified).toBe(true);
  });

  it("filters rows by role and by omissions", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    const view = state().view!;
    expect(visibleRows(view, "active", { roles: [], onlyOmissions: false })).toBeNull();
    const users = visibleRows(view, "original", { roles: ["user"], onlyOmissions: false })!;
    expect(users.length).toBe(2);
    const withMarkers = visibleRows(view, "active", { roles: [], onlyOmissions: true })!;
    expect(withMarkers.length).toBe(9);
    setFilters({ onlyOmissions: true });
    expect(state().filters.onlyOmissions).toBe(true);
  });

  it("j and n move the selection; selecting loads both sides of the message", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    await stepRow(1);
    expect(state().selected).toEqual({ pane: "active", index: 0 });
    expect(state().detail?.active?.index).toBe(0);
    await stepOmission(1);
    const selected = state().selected!;
    expect(selected.pane).toBe("active");
    expect(state().view!.active.flags[selected.index]! & 1).toBe(1);
    await select({ pane: "original", index: 2 });
    expect(state().detail?.original?.index).toBe(2);
    expect(state().detail?.active?.index).toBe(2);
  });

  it("recompacting with a prose cap changes the stats and clears row caches", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    rowCaches().active.ensure(state().client!, 0, 10);
    await vi.waitFor(() => expect(rowCaches().active.size).toBeGreaterThan(0));
    await recompact({ proseCap: 100 });
    expect(state().view!.stats.capped).toBeGreaterThan(0);
    expect(state().proseCap).toBe(100);
    expect(rowCaches().active.size).toBe(0);
  });

  it("deep links round-trip and apply only to the same file", async () => {
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    const hash = deepLinkHash(state(), "c0000006");
    expect(parseDeepLink(hash)).toEqual({ file: state().session!.sha256.slice(0, 16), strategy: "transparent", leaf: "c0000010", message: "c0000006" });
    setPendingLink({ file: "0000000000000000", message: "c0000006" });
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    expect(state().pendingLink).not.toBeNull(); // another file: the link waits
  });

  it("a link of a compaction being audited opens the same file on that audit again", async () => {
    setPendingLink(null);
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    expect(state().view!.audit).toBeUndefined();
    await openAudit(1);
    const hash = deepLinkHash(state());
    expect(parseDeepLink(hash)).toMatchObject({ compaction: 1, strategy: "transparent" });
    setPendingLink(parseDeepLink(hash));
    await loadSource(bytes("composed/pi-v3-tree.jsonl"));
    expect(state().view!.audit?.index).toBe(1);
    expect(parseDeepLink("#c=0&s=x").compaction).toBeUndefined();
  });

  it("a crashed worker shows an error, and retry reloads the last source", async () => {
    let crash: (message: string) => void = () => {};
    let restarts = 0;
    const inner = new InProcessClient();
    const crashing: EngineClient = {
      request: (request, onProgress) => inner.request(request, onProgress),
      cancel: (id) => inner.cancel(id),
      onCrash: (listener) => (crash = listener),
      restart: () => void restarts++,
    };
    connect(crashing);
    await loadSource(bytes("composed/openai-chat.json"));
    crash("out of memory");
    expect(state().crashed).toBe("out of memory");
    retryAfterCrash();
    expect(restarts).toBe(1);
    expect(state().crashed).toBeNull();
    await vi.waitFor(() => expect(state().session?.name).toBe("openai-chat.json"));
  });
});
