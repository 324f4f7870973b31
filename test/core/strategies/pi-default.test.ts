/**
 * pi-default's cut equals Pi's own prepareCompaction (the devDependency) on
 * every Pi fixture: the first kept entry, the split-turn flag and tokensBefore.
 */
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { verifyArchive } from "../../../core/archive.ts";
import { compactSession } from "../../../core/compact.ts";
import { loadSession } from "../../../core/session.ts";
import { ROOT } from "../../helpers/cli.ts";
import { allFixtures, fixturePath, readFixture, describeWithFixtures, fixturesPresent } from "../../helpers/fixtures.ts";

// prepareCompaction is not exported from the package root; load Pi's module file itself.
const piCompaction = (await import(pathToFileURL(resolve(ROOT, "node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js")).href)) as {
  prepareCompaction(entries: unknown[], settings: unknown): { firstKeptEntryId: string; isSplitTurn: boolean; tokensBefore: number } | undefined;
  DEFAULT_COMPACTION_SETTINGS: unknown;
};

const temp = mkdtempSync(join(tmpdir(), "pi-cut-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const PI_FIXTURES = allFixtures().filter((f) => f.startsWith("pi/") || f.startsWith("composed/pi-"));

(fixturesPresent ? describe : describe.skip).each(PI_FIXTURES)("pi-default on %s", (relative) => {
  it("cuts exactly where Pi's prepareCompaction cuts", async () => {
    const dir = mkdtempSync(join(temp, "s-"));
    const copy = join(dir, "session.jsonl");
    copyFileSync(fixturePath(relative), copy);
    const piBranch = SessionManager.open(copy, dir).getBranch() as unknown as { id: string }[];
    const expected = piCompaction.prepareCompaction(piBranch, piCompaction.DEFAULT_COMPACTION_SETTINGS);

    const session = loadSession(readFixture(relative));
    const checkpoint = await compactSession(session, { name: relative, bytes: 0, sha256: "" }, { strategy: "pi-default" });
    const cut = checkpoint.strategy.cut as { firstKeptEntryId: string; isSplitTurn: boolean; tokensBefore: number } | null;
    if (!expected) {
      expect(cut).toBeNull();
      return;
    }
    expect(cut).not.toBeNull();
    // v1 files get random ids from Pi's migration: compare positions on the branch.
    const ourIndex = session.path(null).findIndex((e) => e.id === cut!.firstKeptEntryId);
    const piIndex = piBranch.findIndex((e) => e.id === expected.firstKeptEntryId);
    expect(ourIndex).toBe(piIndex);
    if (session.formatVersion !== "1") expect(cut!.firstKeptEntryId).toBe(expected.firstKeptEntryId);
    expect(cut!.isSplitTurn).toBe(expected.isSplitTurn);
    expect(cut!.tokensBefore).toBe(expected.tokensBefore);
  });
});

describeWithFixtures("pi-default's checkpoint", () => {
  it.each(allFixtures())("%s: the summary slot says none was written, the tail is verbatim, the archive verifies", async (relative) => {
    const session = loadSession(readFixture(relative));
    const checkpoint = await compactSession(session, { name: relative, bytes: 0, sha256: "" }, { strategy: "pi-default" });
    expect(await verifyArchive(checkpoint.archive)).toEqual([]);
    if (checkpoint.strategy.cut === null) return;
    const [summary, ...kept] = checkpoint.active;
    expect(summary!.role).toBe("summary");
    expect(summary!.blocks[0]!.type === "text" && summary!.blocks[0]!.text).toMatch(/^No summary was written/);
    const branch = new Map(session.branch(null).map((m) => [m.id, m]));
    for (const message of kept) expect(message).toBe(branch.get(message.id));
    // Nothing is lost: every branch message is kept or archived.
    const archived = new Set(checkpoint.archive.map((e) => e.messageId));
    for (const id of branch.keys()) expect(archived.has(id) || kept.some((m) => m.id === id)).toBe(true);
  });
});
