/**
 * The CLI's `compact` counts the token stats without filling the per-message
 * cache (it makes one checkpoint and exits; the cache's records were about a
 * third of the session's size, kept to the end). The figures must be the
 * cached path's exactly, on every strategy's view of real sessions.
 */
import { expect, it } from "vitest";
import { compactSession } from "../../../core/compact.ts";
import { tokenStats } from "../../../core/composition.ts";
import { loadSession } from "../../../core/session.ts";
import { STRATEGIES } from "../../../core/strategies/index.ts";
import { isTokenCountCached, loadTokenizer } from "../../../core/tokens.ts";
import { describeWithFixtures, readFixture } from "../../helpers/fixtures.ts";

await loadTokenizer();

const SOURCE = { name: "x", bytes: 1, sha256: "0".repeat(64) };
const FIXTURES = ["composed/pi-v3-tree.jsonl", "claude/entireio__cli__d0-161e0df1cb.jsonl", "pi/badlogic__pi-mono__before-compaction.jsonl"];

describeWithFixtures("token stats without the cache", () => {
  it.each(FIXTURES)("%s: every strategy's figures equal the cached count, and nothing is cached", async (fixture) => {
    for (const strategy of STRATEGIES) {
      // Fresh objects each time, so the cached count below cannot be what the uncached one read.
      const session = loadSession(readFixture(fixture));
      const checkpoint = await compactSession(session, SOURCE, { strategy: strategy.name, countTokens: true, cacheTokenCounts: false });
      const branch = session.branch(checkpoint.source.leafId);
      expect(
        [...branch, ...checkpoint.active].filter((message) => isTokenCountCached(message, session.format)),
        strategy.name,
      ).toEqual([]);
      const cached = tokenStats(branch, checkpoint.active, session.format);
      expect(checkpoint.stats.activeTokens, strategy.name).toBe(cached.activeTokens);
      expect(checkpoint.stats.originalTokens, strategy.name).toBe(cached.originalTokens);
      expect(cached.originalTokens).toBeGreaterThan(0);
      // And the uncached path reads what is cached already, with the same figures.
      expect(tokenStats(branch, checkpoint.active, session.format, undefined, { cache: false })).toEqual(cached);
    }
  });
});
