/** The worker's engine, in-process: projections, geometry, recovery, search, diff, cancel, preview. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DIVIDER_HEIGHT, baseRowHeight } from "../../src/layout/rows.ts";
import { CancelledError, SessionEngine, type FileHasher, type TaskContext } from "../../src/worker/engine.ts";
import { handleRequest } from "../../src/worker/handlers.ts";
import type { RequestOf, ResponseMap } from "../../src/worker/protocol.ts";
import type { Progress } from "../../src/worker/protocol.ts";
import { readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

function bytesOf(relative: string): ArrayBuffer {
  const bytes = readFixture(relative);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function task(progress: Progress[] = [], cancelAfter?: Progress["stage"]): TaskContext {
  let cancelled = false;
  return {
    progress: (p) => {
      progress.push(p);
      if (p.stage === cancelAfter) cancelled = true;
    },
    checkCancelled: () => {
      if (cancelled) throw new CancelledError();
    },
  };
}

/** A request through the handler map, as the worker answers it. */
function ask<T extends RequestOf<Exclude<keyof ResponseMap, "load">>["type"]>(engine: SessionEngine, request: RequestOf<T>): Promise<ResponseMap[T]> {
  return Promise.resolve(handleRequest(engine, request, task()));
}

async function loaded(relative = "composed/pi-v3-tree.jsonl", options: Record<string, unknown> = {}) {
  const engine = new SessionEngine();
  const progress: Progress[] = [];
  const result = await engine.load(
    { kind: "bytes", bytes: bytesOf(relative), name: relative.split("/").pop()! },
    { strategy: "transparent", options, leafId: null },
    task(progress),
  );
  return { engine, result, progress, id: result.view.id };
}

describeWithFixtures("SessionEngine", () => {
  it("loads, summarises the session and shows a preview of the original pane first", async () => {
    const { engine, result, progress, id } = await loaded();
    expect(result.session).toMatchObject({ name: "pi-v3-tree.jsonl", format: "pi", formatVersion: "3", defaultLeafId: "c0000010", recordedCompactions: 1 });
    expect(result.session.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.session.leaves.map((l) => l.label)).toEqual([
      "Try a migration that backfills null amounts instead.",
      "Great. Next, add a test for negative amounts in test/ledger.test.ts and open a PR that re…",
    ]);
    const preview = progress.find((p) => p.preview)!.preview!;
    expect(preview.original.count).toBe(18);
    // The finished view adds what needs the whole session: a divider above the row after each recorded
    // compaction (and its height), whether a row left the active context, the row in the other pane.
    const finished = engine.rows(id, "original", 0, 100);
    expect(finished.filter((row) => row.dividers).map((row) => row.dividers!.map((d) => d.index))).toEqual([[1]]);
    expect(Array.from(preview.original.heights)).toEqual(finished.map((row, i) => result.view.original.heights[i]! - (row.dividers?.length ?? 0) * DIVIDER_HEIGHT));
    // The preview goes out before the file is hashed, with the first page of rows in it.
    expect(preview.session.sha256).toBe("");
    expect(preview.session.timings.readMs).toBeGreaterThanOrEqual(0);
    expect(preview.firstRows).toEqual(finished.map(({ dropped: _d, dividers: _v, otherRow: _o, otherIsSummary: _s, isSummary: _i, ...base }) => base));
    expect(result.view.original.count).toBe(18);
    expect(result.view.active.count).toBe(18);
    expect(result.view.stats.payloads).toBe(9);
  });

  it("row heights from the geometry equal the heights of the projected rows", async () => {
    const { engine, result, id } = await loaded("pi/JohnnyLai92__pi-mono__6edf3497.jsonl");
    for (const pane of ["original", "active"] as const) {
      const rows = engine.rows(id, pane, 0, result.view[pane].count);
      rows.forEach((row, i) => expect(result.view[pane].heights[i], `${pane} row ${i}`).toBe(baseRowHeight(row)));
    }
  });

  it("aligns the panes by source message and pairs calls with results", async () => {
    const { engine, result, id } = await loaded();
    const original = engine.rows(id, "original", 0, 18);
    const active = engine.rows(id, "active", 0, 18);
    active.forEach((row, i) => {
      expect(row.sourceRow).toBe(i);
      expect(original[row.sourceRow]!.id).toBe(row.id);
      expect(result.view.active.aligned[i]).toBe(i);
    });
    const call = original.find((r) => r.blocks.some((b) => b.callId === "toolu_04"))!;
    const resultRow = call.blocks.find((b) => b.callId === "toolu_04")!.resultRow!;
    expect(original[resultRow]!.tool).toMatchObject({ callId: "toolu_04", name: "bash", isError: true, exitCode: 1, callRow: call.index });
  });

  it("recovers a payload verified against its hash, as display blocks", async () => {
    const { engine, id } = await loaded();
    const marker = engine
      .rows(id, "active", 0, 18)
      .flatMap((r) => r.blocks)
      .find((b) => b.recoveryId === "c0000006#/blocks")!;
    const recovered = await ask(engine, { type: "recover", view: id, recoveryId: marker.recoveryId!, full: false });
    expect(recovered).toMatchObject({ verified: true, expected: marker.sha256, found: marker.sha256, kind: "toolResult" });
    expect(recovered.blocks.map((b) => b.type)).toEqual(["text", "image"]);
    expect(recovered.blocks[1]!.imageUrl).toMatch(/^data:image\/png;base64,/);
    await expect(ask(engine, { type: "recover", view: id, recoveryId: "nope#/x", full: false })).rejects.toThrow(/no archived payload/);
  });

  it("finds text in both panes, diffs capped prose, locates messages", async () => {
    const { engine, id } = await loaded("composed/pi-v3-tree.jsonl", { maxProseChars: 100 });
    const search = await ask(engine, { type: "search", view: id, query: "MIGRATIONS/" });
    expect(search.original.length).toBeGreaterThan(0);
    expect(await ask(engine, { type: "search", view: id, query: "   " })).toEqual({ original: [], active: [], total: 0, capped: false });
    const changed = engine.rows(id, "active", 0, 18).find((r) => r.differs)!;
    const diff = await ask(engine, { type: "diff", view: id, index: changed.index, full: false });
    expect(diff.parts.some((p) => p.removed)).toBe(true);
    const row = engine.rows(id, "original", 0, 18).findIndex((r) => r.id === "c0000006");
    expect(row).toBeGreaterThan(0);
    expect(await ask(engine, { type: "locate", view: id, messageId: "c0000006" })).toEqual({ original: row, active: row });
    expect(await ask(engine, { type: "locate", view: id, messageId: "b0000003" })).toEqual({ original: -1, active: -1 });
  });

  it("recompacts from the previous checkpoint, round by round, with the same ids", async () => {
    const { engine, result, id } = await loaded();
    const before = engine
      .rows(id, "active", 0, 18)
      .flatMap((r) => r.blocks.map((b) => b.recoveryId))
      .filter(Boolean);
    const next = await ask(engine, { type: "compact", view: id, params: { strategy: "transparent", options: {}, leafId: result.view.leafId, fromPrevious: true } });
    expect(next.round).toBe(1);
    expect(next.hasPrevious).toBe(true);
    expect(
      engine
        .rows(next.id, "active", 0, 18)
        .flatMap((r) => r.blocks.map((b) => b.recoveryId))
        .filter(Boolean),
    ).toEqual(before);
  });

  it("a cancelled load throws and leaves the previous session in place", async () => {
    const { engine, id } = await loaded();
    await expect(
      engine.load({ kind: "bytes", bytes: bytesOf("composed/openai-chat.json"), name: "x.json" }, { strategy: "transparent", options: {}, leafId: null }, task([], "parsing")),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(engine.rows(id, "original", 0, 1)[0]!.id).toBe("a0000003");
  });

  it("every request names its view: the one before the newest answers until the page asks about the newest", async () => {
    const { engine, id } = await loaded();
    // A load the page cancelled too late: it finished here, and the page still shows the view before it.
    const second = await engine.load(
      { kind: "bytes", bytes: bytesOf("composed/openai-chat.json"), name: "x.json" },
      { strategy: "transparent", options: {}, leafId: null },
      task(),
    );
    expect(second.view.id).not.toBe(id);
    expect(engine.rows(id, "original", 0, 1)[0]!.id).toBe("a0000003");
    expect((await ask(engine, { type: "detail", view: id, pane: "original", index: 0, full: false })).id).toBe("a0000003");
    // Once the page asks about the newest view, the one before it is let go.
    expect(engine.rows(second.view.id, "original", 0, 1)[0]!.id).not.toBe("a0000003");
    expect(() => engine.rows(id, "original", 0, 1)).toThrow(/no longer shown/);
  });

  it("the view the page shows keeps answering through more than one load it never took", async () => {
    const { engine, id } = await loaded();
    engine.rows(id, "original", 0, 1);
    const load = () => engine.load({ kind: "bytes", bytes: bytesOf("composed/openai-chat.json"), name: "x.json" }, { strategy: "transparent", options: {}, leafId: null }, task());
    await load();
    await load();
    expect(engine.rows(id, "original", 0, 1)[0]!.id).toBe("a0000003");
  });

  it("while a load compacts, its preview's rows answer under the id its view will have; the view on screen still answers", async () => {
    const { engine, id } = await loaded();
    let previewRows: string | undefined;
    let screenRows: string | undefined;
    const progress: TaskContext = {
      progress: (p) => {
        if (!p.preview) return;
        previewRows = engine.rows(p.preview.viewId, "original", 0, 1)[0]?.id;
        screenRows = engine.rows(id, "original", 0, 1)[0]?.id;
      },
      checkCancelled: () => {},
    };
    const result = await engine.load(
      { kind: "bytes", bytes: bytesOf("composed/openai-chat.json"), name: "x.json" },
      { strategy: "transparent", options: {}, leafId: null },
      progress,
    );
    expect(screenRows).toBe("a0000003");
    expect(previewRows).toBe(engine.rows(result.view.id, "original", 0, 1)[0]!.id);
  });

  it("exports the checkpoint as a Blob named after the source", async () => {
    const { engine, id } = await loaded();
    const { blob, name } = await ask(engine, { type: "export", view: id });
    expect(name).toBe("pi-v3-tree.transparent.checkpoint.json");
    const checkpoint = JSON.parse(await blob.text());
    expect(checkpoint.archive).toHaveLength(9);
    // The token stats the CLI's compact writes, so the two files are the same bytes.
    expect(checkpoint.stats.activeTokens).toBeGreaterThan(0);
    expect(checkpoint.stats.originalTokens).toBeGreaterThan(checkpoint.stats.activeTokens);
  });

  describe("a local file hashed by another thread", () => {
    const relative = "composed/pi-v3-tree.jsonl";
    const file = () => new File([new Uint8Array(readFixture(relative))], "pi-v3-tree.jsonl");
    const expected = createHash("sha256").update(readFixture(relative)).digest("hex");

    function hasher(answer: (file: File) => Promise<string>) {
      const calls = { started: 0, cancelled: 0, startedAfterPreview: false };
      let previewSent = false;
      const progress: Progress[] = [];
      const context: TaskContext = { progress: (p) => ((previewSent ||= p.preview !== undefined), progress.push(p)), checkCancelled: () => {} };
      const hashFile: FileHasher = (file) => {
        calls.started++;
        calls.startedAfterPreview = previewSent;
        return { result: answer(file), cancel: () => void calls.cancelled++ };
      };
      return { calls, context, engine: new SessionEngine(undefined, hashFile) };
    }

    it("starts after the preview, and its hash reaches the summary and the checkpoint; the thread is ended", async () => {
      const { calls, context, engine } = hasher(async (f) =>
        createHash("sha256")
          .update(new Uint8Array(await f.arrayBuffer()))
          .digest("hex"),
      );
      const result = await engine.load({ kind: "file", file: file() }, { strategy: "transparent", options: {}, leafId: null }, context);
      expect(result.session.sha256).toBe(expected);
      const exported = await ask(engine, { type: "export", view: result.view.id });
      expect(JSON.parse(await exported.blob.text()).source.sha256).toBe(expected);
      expect(calls).toEqual({ started: 1, cancelled: 1, startedAfterPreview: true });
    });

    it("a thread that fails is replaced by hashing here", async () => {
      const { calls, context, engine } = hasher(async () => {
        throw new Error("no nested workers here");
      });
      const result = await engine.load({ kind: "file", file: file() }, { strategy: "transparent", options: {}, leafId: null }, context);
      expect(result.session.sha256).toBe(expected);
      expect(calls.cancelled).toBe(1);
    });

    it("a thread that cannot even start is no error: the file is hashed here", async () => {
      const engine = new SessionEngine(undefined, () => {
        throw new Error("Worker is not defined");
      });
      const result = await engine.load({ kind: "file", file: file() }, { strategy: "transparent", options: {}, leafId: null }, task());
      expect(result.session.sha256).toBe(expected);
    });

    it("bytes already in hand are hashed here, with no other thread", async () => {
      const { calls, context, engine } = hasher(async () => "never used");
      const result = await engine.load({ kind: "bytes", bytes: bytesOf(relative), name: "pi-v3-tree.jsonl" }, { strategy: "transparent", options: {}, leafId: null }, context);
      expect(result.session.sha256).toBe(expected);
      expect(calls.started).toBe(0);
    });
  });
});
