/**
 * Every strategy on every fixture: the archive verifies, and nothing is lost
 * (each branch message is in the active view as it was, or recoverable from
 * the archive). Per-strategy specifics for brief and handoff.
 */
import { describe, expect, it } from "vitest";
import { verifyArchive } from "../../../core/archive.ts";
import { compactSession } from "../../../core/compact.ts";
import { textOf } from "../../../core/model.ts";
import { loadSession } from "../../../core/session.ts";
import { STRATEGIES } from "../../../core/strategies/index.ts";
import { GUARD_LINE } from "../../../core/strategies/handoff.ts";
import { lostMessages } from "../../helpers/restore.ts";
import { allFixtures, readFixture, describeWithFixtures, fixturesPresent } from "../../helpers/fixtures.ts";

const SOURCE = { name: "t", bytes: 0, sha256: "" };

(fixturesPresent ? describe : describe.skip).each(STRATEGIES.map((s) => s.name))("strategy %s", (strategy) => {
  it.each(allFixtures())("%s: archive verifies, nothing is lost", async (relative) => {
    const session = loadSession(readFixture(relative));
    const checkpoint = await compactSession(session, SOURCE, { strategy });
    expect(await verifyArchive(checkpoint.archive)).toEqual([]);
    // Every payload of every branch message is in the active view or back from the archive at its own path.
    expect(lostMessages(session.branch(null), checkpoint.active, checkpoint.archive), `${strategy} lost`).toEqual([]);
    expect(checkpoint.stats.payloads).toBe(checkpoint.archive.length);
  });
});

describeWithFixtures("handoff", () => {
  it("stacks summary slot, staples, the newest user messages verbatim and the current turn", async () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const checkpoint = await compactSession(session, SOURCE, { strategy: "handoff" });
    const [summary, staples, ...rest] = checkpoint.active;
    expect(textOf(summary!)).toContain("No summary was written");
    expect(textOf(summary!)).toContain(GUARD_LINE);
    const stapleText = textOf(staples!);
    for (const tag of ["modified-files", "read-files", "anchors", "user-constraints", "last-run", "unresolved-error", "latest-user-request"])
      expect(stapleText).toContain(`<${tag}>`);
    expect(stapleText).toContain("src/export.ts\nsrc/csv.ts");
    expect(stapleText).not.toContain("migrations/0042");
    expect(rest.map((m) => m.id)).toEqual(["a0000003", "c0000010"]);
    expect(checkpoint.strategy.tiers).toEqual({ "summary alone": 1, "summary + staples": 2 });
  });

  it("caps a big output at 10 KB (first and last 5 KB) and clears results older than the newest 3", async () => {
    const big = "x".repeat(30_000);
    const messages = [
      { role: "user", content: "run things" },
      ...[1, 2, 3, 4, 5].flatMap((i) => [
        { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "bash", arguments: "{}" } }] },
        { role: "tool", tool_call_id: `c${i}`, content: i === 5 ? `HEAD${big}TAIL` : `line one of ${i}\nmore` },
      ]),
    ];
    const session = loadSession(JSON.stringify(messages));
    const checkpoint = await compactSession(session, SOURCE, { strategy: "handoff" });
    const results = checkpoint.active.filter((m) => m.role === "toolResult").map(textOf);
    expect(results[0]).toMatch(/^\[cleared bash result: line one of 1 · full output: recover m2#\/blocks\]$/);
    expect(results[1]).toMatch(/^\[cleared bash result: line one of 2/);
    expect(results[2]).toBe("line one of 3\nmore");
    expect(results[4]!.startsWith("HEAD")).toBe(true);
    expect(results[4]!.endsWith("TAIL")).toBe(true);
    expect(results[4]!.length).toBeLessThan(10 * 1024 + 200);
    const full = checkpoint.archive.find((e) => e.id === "m10#/blocks")!;
    expect(JSON.stringify(full.payload)).toContain(big);
  });
});

describeWithFixtures("brief", () => {
  it("keeps the newest user turns and briefs the rest with truncated prose and one-line tool calls", async () => {
    const session = loadSession(readFixture("pi/badlogic__pi-mono__before-compaction.jsonl"));
    const checkpoint = await compactSession(session, SOURCE, { strategy: "brief" });
    const briefText = textOf(checkpoint.active[0]!);
    expect(briefText).toMatch(/^\[Brief of the \d+ earlier messages, written by code in the style of pi-vcc/);
    for (const section of ["## Session goal", "## Files and changes", "## Transcript brief"]) expect(briefText).toContain(section);
    expect(briefText).toMatch(/\n\[tool\] (read|edit|write|bash) /);
    // Prose is truncated: no transcript line carries more than 256 user words or 200 assistant words.
    for (const line of briefText.split("\n").filter((l) => l.startsWith("[assistant]"))) expect(line.split(/\s+/).length).toBeLessThan(215);
    expect(checkpoint.strategy.keepTurns).toBe(2);
  });
});
