/**
 * The app's Follow (issue #29), in-process: a session opened through a file
 * handle, the file grown under it in pieces (cut mid-line, with a compaction
 * in the middle), each look read by the engine as the worker does. The
 * followed view equals the view of a fresh load of the same bytes, the new
 * compaction is named with the file's own figures, and a file that was
 * rewritten or removed is said so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CancelledError, SessionEngine, type TaskContext } from "../../src/worker/engine.ts";
import type { FollowParams, FollowResult, ViewSummary } from "../../src/worker/protocol.ts";
import type { ReadableHandle } from "../../src/worker/services/follow.ts";
import { ROOT } from "../helpers/cli.ts";

const task: TaskContext = {
  progress: () => {},
  checkCancelled: () => {
    if (false as boolean) throw new CancelledError();
  },
};

/** A file on a disk the test writes to: getFile() gives its bytes as they are now, as a FileSystemFileHandle does. */
class GrowingFile implements ReadableHandle {
  bytes = new Uint8Array(0);
  modified = 1;
  gone = false;
  constructor(readonly name: string) {}
  write(bytes: Uint8Array): void {
    this.bytes = bytes.slice();
    this.modified++;
  }
  append(bytes: Uint8Array): void {
    const joined = new Uint8Array(this.bytes.length + bytes.length);
    joined.set(this.bytes);
    joined.set(bytes, this.bytes.length);
    this.write(joined);
  }
  async getFile(): Promise<File> {
    if (this.gone) throw new DOMException("A requested file or directory could not be found", "NotFoundError");
    return new File([this.bytes], this.name, { lastModified: this.modified });
  }
}

const demo = readFileSync(join(ROOT, "public/demos/pi-ledger-fix.jsonl"));
const lines = demo.toString("utf8").split("\n").filter(Boolean);
const compactionLine = lines.findIndex((line) => line.includes('"type":"compaction"'));
const encode = (text: string) => new TextEncoder().encode(text);
const params = (view: ViewSummary, auditIndex: number | null = null): FollowParams => ({
  strategy: view.strategy === "recorded" ? "transparent" : view.strategy,
  options: {},
  leafId: null,
  auditIndex,
});

async function open(file: GrowingFile) {
  const engine = new SessionEngine();
  const handle = file as unknown as FileSystemFileHandle;
  const loaded = await engine.load({ kind: "file", file: await file.getFile(), handle }, { strategy: "transparent", options: {}, leafId: null }, task);
  return { engine, loaded };
}

/** What the screen shows of a view: its geometry and counts, without the ids that number views. */
function screenOf(view: ViewSummary) {
  const { id: _id, compactMs: _ms, ...rest } = view;
  return { ...rest, original: { ...rest.original }, active: { ...rest.active } };
}

describe("Follow in the engine", () => {
  it("reads what the file gained, and the view equals a fresh load of the same bytes", async () => {
    const file = new GrowingFile("pi-ledger-fix.jsonl");
    file.write(encode(lines.slice(0, compactionLine).join("\n") + "\n"));
    const { engine, loaded } = await open(file);
    expect(loaded.session.recordedCompactions).toBe(0);
    const openedView = engine.screen(loaded.view.id).view;

    // Nothing written since the load: the first look reads the file and finds it the same.
    const first = await engine.follow(loaded.view.id, params(loaded.view), task);
    expect(first).toEqual({ change: "unchanged", bytes: file.bytes.length });

    // The agent writes the compaction and the line after it, the second cut in the middle.
    const rest = encode(lines.slice(compactionLine, compactionLine + 2).join("\n") + "\n");
    const cut = rest.length - 40;
    file.append(rest.subarray(0, cut));
    const half = await engine.follow(loaded.view.id, params(loaded.view), task);
    // What a fresh load of the complete lines written so far shows.
    const halfFile = new GrowingFile("pi-ledger-fix.jsonl");
    halfFile.write(encode(lines.slice(0, compactionLine + 1).join("\n") + "\n"));
    const fresh0 = await open(halfFile);
    expect(half.change).toBe("grew");
    if (half.change === "unchanged") return;
    expect(half.newCompactions).toEqual([expect.objectContaining({ index: 1, line: compactionLine + 1, kind: expect.any(String) })]);
    expect(half.newCompactions[0]!.tokensBefore).toBeGreaterThan(0);
    expect(half.session.recordedCompactions).toBe(1);
    // The first look took over the view made at opening: the first growth read only the messages after it,
    // and its pane models went on from the opened view's (the same maps), drawing what a fresh load draws.
    const openedMessages = loaded.view.original.count;
    const grown = engine.screen(half.view.id);
    expect(grown.loaded.growth!.lastReadFrom).toBe(openedMessages);
    const openedScreen = fresh0.engine.screen(fresh0.loaded.view.id);
    expect(grown.view.original.indexById).toBe(openedView.original.indexById);
    expect(grown.view.active.indexById).toBe(openedView.active.indexById);
    for (const pane of ["original", "active"] as const) expect(engine.rows(half.view.id, pane, 0, 100)).toEqual(fresh0.engine.rows(openedScreen.view.summary.id, pane, 0, 100));

    file.append(rest.subarray(cut));
    const whole: FollowResult = await engine.follow(half.view.id, params(half.view), task);
    if (whole.change === "unchanged") throw new Error("the end of the cut line was not read");
    expect(whole.newCompactions).toEqual([]);
    expect(whole.addedBytes).toBe(40);

    const fresh = await open(file);
    expect(whole.session).toEqual({ ...fresh.loaded.session, timings: whole.session.timings });
    expect(screenOf(whole.view)).toEqual(screenOf(fresh.loaded.view));
    // Both panes' rows, whose call and result rows the second growth's pane models took from the first's maps.
    expect(engine.rows(whole.view.id, "active", 0, 100)).toEqual(fresh.engine.rows(fresh.loaded.view.id, "active", 0, 100));
    expect(engine.rows(whole.view.id, "original", 0, 100)).toEqual(fresh.engine.rows(fresh.loaded.view.id, "original", 0, 100));
  });

  it("keeps the audit of the compaction on screen as the file grows past it", async () => {
    const file = new GrowingFile("pi-ledger-fix.jsonl");
    file.write(encode(lines.slice(0, compactionLine + 1).join("\n") + "\n"));
    const { engine, loaded } = await open(file);
    const audit = engine.auditView(loaded.view.id, 1);
    file.append(encode(lines.slice(compactionLine + 1).join("\n") + "\n"));
    const grown = await engine.follow(audit.id, params(audit, 1), task);
    if (grown.change === "unchanged") throw new Error("the growth was not read");
    expect(grown.view.audit?.index).toBe(1);
    expect(grown.view.audit?.count).toBe(1);
  });

  it("says when the file was rewritten, and when it is gone", async () => {
    const file = new GrowingFile("pi-ledger-fix.jsonl");
    file.write(demo);
    const { engine, loaded } = await open(file);
    await engine.follow(loaded.view.id, params(loaded.view), task);
    file.write(encode(lines.slice(0, 10).join("\n") + "\n"));
    const shrunk = await engine.follow(loaded.view.id, params(loaded.view), task);
    expect(shrunk).toMatchObject({ change: "rewritten", why: expect.stringMatching(/shrank/) });
    if (shrunk.change === "unchanged") return;
    file.gone = true;
    await expect(engine.follow(shrunk.view.id, params(shrunk.view), task)).rejects.toThrow(/can no longer be read.*removed or renamed/);
  });

  it("refuses a session that was not opened from a handle, saying how to follow one", async () => {
    const engine = new SessionEngine();
    const loaded = await engine.load(
      { kind: "bytes", bytes: demo.buffer.slice(demo.byteOffset, demo.byteOffset + demo.byteLength) as ArrayBuffer, name: "x.jsonl" },
      { strategy: "transparent", options: {}, leafId: null },
      task,
    );
    await expect(engine.follow(loaded.view.id, params(loaded.view), task)).rejects.toThrow(/Follow…/);
  });
});
