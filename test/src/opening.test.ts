import { describe, expect, it } from "vitest";
import { compactionToOpen } from "../../src/store/opening.ts";
import type { LoadSource } from "../../src/worker/protocol.ts";

const file = { kind: "file", file: {} as File } as LoadSource;
const files = { kind: "files", name: "task", files: [] } as LoadSource;
const demo = { kind: "url", url: "demos/x.jsonl", name: "x.jsonl" } as LoadSource;
const bytes = { kind: "bytes", bytes: new ArrayBuffer(0), name: "x" } as LoadSource;

describe("the view a loaded session opens on", () => {
  it("a user's file (or a session's files) with recorded compactions: the audit of the last one", () => {
    expect(compactionToOpen(file, { recordedCompactions: 3 }, false)).toBe(3);
    expect(compactionToOpen(files, { recordedCompactions: 1 }, false)).toBe(1);
  });
  it("no recorded compaction, a demo, bytes or a deep link: the strategy view", () => {
    expect(compactionToOpen(file, { recordedCompactions: 0 }, false)).toBeNull();
    expect(compactionToOpen(demo, { recordedCompactions: 2 }, false)).toBeNull();
    expect(compactionToOpen(bytes, { recordedCompactions: 2 }, false)).toBeNull();
    expect(compactionToOpen(file, { recordedCompactions: 2 }, true)).toBeNull();
    expect(compactionToOpen(file, { recordedCompactions: 2 }, true, { compaction: 1 })).toBeNull();
  });
  it("a library row: the compaction it names, the last one when the name is out of range", () => {
    expect(compactionToOpen(file, { recordedCompactions: 3 }, false, { compaction: 1 })).toBe(1);
    expect(compactionToOpen(demo, { recordedCompactions: 3 }, false, { compaction: 2 })).toBe(2);
    expect(compactionToOpen(file, { recordedCompactions: 3 }, false, { compaction: 7 })).toBe(3);
    expect(compactionToOpen(file, { recordedCompactions: 3 }, false, { compaction: 0 })).toBe(3);
  });
});
