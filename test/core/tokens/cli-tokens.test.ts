/**
 * The CLI's token figures: `inspect` prints the file's usage and the
 * model-view counts; `compact` adds activeTokens/originalTokens to the stats
 * without changing the existing fields. Figures equal the core functions'
 * on the same session (one implementation, so every surface agrees).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { compactSession } from "../../../core/compact.ts";
import { tokenStats } from "../../../core/composition.ts";
import { loadSession } from "../../../core/session.ts";
import { TOKENIZER_LABEL, contextTokens, loadTokenizer } from "../../../core/tokens.ts";
import { runCli } from "../../helpers/cli.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../../helpers/fixtures.ts";

// The o200k table is imported on first need (core/tokens.ts); these tests count with it.
await loadTokenizer();

const temp = mkdtempSync(join(tmpdir(), "si-tokens-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describeWithFixtures("inspect", () => {
  it("prints the file's usage and the model-view token counts of a real Codex rollout", () => {
    const name = "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl";
    const { status, stdout } = runCli(["inspect", fixturePath(name)]);
    expect(status).toBe(0);
    const summary = JSON.parse(stdout);
    const session = loadSession(readFixture(name));
    expect(summary.usage.contextWindow).toBe(121600);
    expect(summary.usage.turns).toHaveLength(session.usage(null).turns.length);
    expect(Object.keys(summary.usage.turns[0])).toEqual(["line", "input", "output", "cacheRead", "cacheWrite"]);
    expect(summary.usage.last).toEqual({ line: 861, input: 220, output: 1905, cacheRead: 95872, cacheWrite: 0, contextTokens: 96092 });
    expect(summary.modelViewTokens).toMatchObject({
      branch: contextTokens(session.branch(null), "codex").total,
      recorded: contextTokens(session.recordedContext(null).messages, "codex").total,
      tokenizer: TOKENIZER_LABEL,
    });
    // The model reads more than the transcript (instructions, tool definitions): the view is below the file's figure.
    expect(summary.modelViewTokens.lastTurn).toBeLessThanOrEqual(summary.usage.last.contextTokens);
  });

  it("says null where a file records no usage (legacy Codex)", () => {
    const { stdout } = runCli(["inspect", fixturePath("codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl")]);
    const summary = JSON.parse(stdout);
    expect(summary.usage).toEqual({ turns: [], last: null, contextWindow: null, notes: [] });
    expect(summary.modelViewTokens.lastTurn).toBeNull();
    expect(summary.modelViewTokens.branch).toBeGreaterThan(0);
  });
});

describeWithFixtures("compact --token-counts", () => {
  it("adds activeTokens and originalTokens after the existing stats, which stay as they were", async () => {
    const name = "pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl";
    const out = join(temp, "cp.json");
    expect(runCli(["compact", fixturePath(name), "--token-counts", "--output", out]).status).toBe(0);
    const stats = JSON.parse(readFileSync(out, "utf8")).stats;
    const session = loadSession(readFixture(name));
    const untouched = await compactSession(session, { name: "x", bytes: 0, sha256: "" }, { strategy: "transparent" });
    expect(Object.keys(stats)).toEqual([...Object.keys(untouched.stats), "activeTokens", "originalTokens"]);
    expect(stats).toMatchObject(untouched.stats);
    expect(stats).toMatchObject(tokenStats(session.branch(null), untouched.active, "pi"));
    expect(stats.activeTokens).toBeLessThan(stats.originalTokens);
  });
});

describeWithFixtures("compact without --token-counts (the default)", () => {
  it("writes the stats without token counts, the rest unchanged; --no-token-counts is the same", () => {
    const name = "composed/pi-v3-tree.jsonl";
    const withCounts = join(temp, "with.json");
    const without = join(temp, "without.json");
    const explicit = join(temp, "explicit.json");
    expect(runCli(["compact", fixturePath(name), "--output", withCounts, "--token-counts"]).status).toBe(0);
    expect(runCli(["compact", fixturePath(name), "--output", without]).status).toBe(0);
    expect(runCli(["compact", fixturePath(name), "--output", explicit, "--no-token-counts"]).status).toBe(0);
    expect(readFileSync(explicit, "utf8")).toBe(readFileSync(without, "utf8"));
    const a = JSON.parse(readFileSync(withCounts, "utf8"));
    const b = JSON.parse(readFileSync(without, "utf8"));
    expect(b.stats.activeTokens).toBeUndefined();
    const { activeTokens: _a, originalTokens: _o, ...rest } = a.stats;
    expect(b).toEqual({ ...a, stats: rest });
  });
});

describeWithFixtures("compact --token-counts --no-token-counts", () => {
  it("is refused as a contradiction, with the usage", () => {
    const { status, stderr } = runCli(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--token-counts", "--no-token-counts"]);
    expect(status).toBe(2);
    expect(stderr.split("\n")[0]).toBe("error: --token-counts and --no-token-counts contradict each other");
  });
});
