/**
 * Does pi-default's cut depend on the Pi version that wrote the file? The
 * finding (docs/formats.md, "Pi: which version cuts where"): no version the
 * file records changes the cut. The header's `version` (1, 2, 3) is the
 * session-format version; Pi 0.73.1 migrates every file to v3 before it cuts,
 * with one findCutPoint and one set of defaults (keepRecentTokens 20000,
 * reserveTokens 16384). A later Pi release also counts custom_message and
 * branch_summary entries in the cut walk, yet still writes version 3, so no
 * file says which rule applies. These tests pin today's behaviour for each
 * header version seen in the fixtures; pi-default.test.ts checks the same
 * cuts against Pi's own prepareCompaction.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compactSession } from "../../../core/compact.ts";
import { loadSession } from "../../../core/session.ts";
import { ROOT } from "../../helpers/cli.ts";
import { describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

const PI = resolve(ROOT, "node_modules/@mariozechner/pi-coding-agent/dist/core");

/** Each Pi fixture: its header version, and the cut pi-default makes on it today (position on the branch path, split turn, tokensBefore). */
const PINNED: [file: string, headerVersion: string, firstKeptIndex: number, isSplitTurn: boolean, tokensBefore: number][] = [
  ["pi/badlogic__pi-mono__before-compaction.jsonl", "1", 946, true, 180_820],
  ["composed/pi-v2-hookmessage.jsonl", "2", 0, false, 10_380],
  ["composed/pi-v3-tree.jsonl", "3", 10, false, 10_408],
  ["pi/JohnnyLai92__pi-mono__6edf3497.jsonl", "3", 167, true, 153_433],
  ["pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl", "3", 153, true, 150_836],
  ["pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl", "3", 202, true, 33_766],
];

async function cutOf(text: string | Uint8Array) {
  const session = loadSession(text);
  const checkpoint = await compactSession(session, { name: "pi", bytes: 0, sha256: "" }, { strategy: "pi-default" });
  const cut = checkpoint.strategy.cut as { firstKeptEntryId: string; isSplitTurn: boolean; tokensBefore: number };
  return {
    version: session.formatVersion,
    index: session.path(null).findIndex((e) => e.id === cut.firstKeptEntryId),
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: cut.tokensBefore,
  };
}

describe("Pi 0.73.1 (the oracle the cut is checked against): nothing version-dependent in its cut", () => {
  const compaction = readFileSync(resolve(PI, "compaction/compaction.js"), "utf8");
  const sessionManager = readFileSync(resolve(PI, "session-manager.js"), "utf8");

  it("compaction.js never reads a version; its defaults are the ones pi-default uses", () => {
    expect(compaction).not.toMatch(/version/i);
    expect(compaction).toMatch(/reserveTokens: 16384,\s*keepRecentTokens: 20000/);
  });

  it("every older file is migrated to the current session version (3) before anything cuts it", () => {
    expect(sessionManager).toMatch(/CURRENT_SESSION_VERSION = 3;/);
    expect(sessionManager).toMatch(/function migrateV1ToV2/);
    expect(sessionManager).toMatch(/function migrateV2ToV3/);
  });
});

describeWithFixtures("pi-default's cut, pinned per header version seen in the fixtures", () => {
  it("covers session versions 1, 2 and 3", () => {
    expect([...new Set(PINNED.map(([, version]) => version))].sort()).toEqual(["1", "2", "3"]);
  });

  it.each(PINNED)("%s (header version %s) cuts at entry %i, split turn %s, tokensBefore %i", async (file, version, index, isSplitTurn, tokensBefore) => {
    expect(await cutOf(readFixture(file))).toEqual({ version, index, isSplitTurn, tokensBefore });
  });

  it.each(PINNED.filter(([file]) => file.startsWith("pi/")))("%s has no custom_message or branch_summary entry, where a later Pi's cut walk differs", (file) => {
    const types = new TextDecoder()
      .decode(readFixture(file))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { type?: string }).type);
    expect(types.filter((type) => type === "custom_message" || type === "branch_summary")).toEqual([]);
  });

  it("the header's version field is not an input of the cut: a v3 file relabelled as a newer version cuts the same", async () => {
    const text = new TextDecoder().decode(readFixture("composed/pi-v3-tree.jsonl"));
    const relabelled = text.replace(/^(\{"type":"session","version":)3,/, "$14,");
    expect(relabelled).not.toBe(text);
    const { version: _v3, ...asV3 } = await cutOf(text);
    const { version, ...asV4 } = await cutOf(relabelled);
    expect(version).toBe("4");
    expect(asV4).toEqual(asV3);
  });
});
