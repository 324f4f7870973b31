// @vitest-environment happy-dom
/** The tokens slice: the exact count replaces the view's budgeted figures and equals the CLI's; cleared checkride results are announced. */
import { beforeEach, expect, it } from "vitest";
import { tokenStats } from "../../core/composition.ts";
import { compactSession } from "../../core/compact.ts";
import { loadSession } from "../../core/session.ts";
import { loadTokenizer } from "../../core/tokens.ts";
import { connect, countViewTokens, loadSource, openAudit, recompact, useApp, useTokens } from "../../src/store/store.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { describeWithFixtures, readFixture, fixtureSource } from "../helpers/fixtures.ts";

const FILE = "claude/entireio__cli__d0-161e0df1cb.jsonl";

const bytes = fixtureSource;

beforeEach(() => {
  connect(new InProcessClient());
  useTokens.setState({ exact: null, counting: null, error: null, clearedCheckride: null, equivalents: null });
});

describeWithFixtures("tokens slice", () => {
  it("the exact count equals the core's token stats of the same checkpoint, with the file's last turn beside it", async () => {
    await loadSource(bytes(FILE));
    const view = useApp.getState().view!;
    await countViewTokens(view.id);
    const exact = useTokens.getState().exact;
    expect(exact?.viewId).toBe(view.id);
    await loadTokenizer();
    const session = loadSession(readFixture(FILE));
    const checkpoint = await compactSession(session, { name: "x", bytes: 0, sha256: "" }, { strategy: "transparent" });
    const expected = tokenStats(session.branch(session.defaultLeafId), checkpoint.active, session.format);
    expect(exact!.figures.active).toBe(expected.activeTokens);
    expect(exact!.figures.original).toBe(expected.originalTokens);
    expect(exact!.figures.exact).toBe(true);
    expect(exact!.figures.usage?.last?.recorded).toBeGreaterThan(exact!.figures.usage!.last!.modelView);
    expect(exact!.figures.composition.reduce((sum, p) => sum + p.tokens, 0)).toBe(expected.activeTokens);
  }, 60_000);

  it("says why checkride results went away on a strategy change and on compacting again", async () => {
    await loadSource(bytes(FILE));
    useApp.setState({ checkride: { ...useApp.getState().checkride, results: [] } });
    await recompact({ strategy: "brief" });
    expect(useApp.getState().checkride.results).toBeNull();
    expect(useTokens.getState().clearedCheckride).toBe("the strategy changed");
    // Without results on screen there is nothing to announce.
    await recompact({ strategy: "transparent" });
    expect(useTokens.getState().clearedCheckride).toBeNull();
    useApp.setState({ checkride: { ...useApp.getState().checkride, results: [] } });
    await recompact({ fromPrevious: true });
    expect(useTokens.getState().clearedCheckride).toMatch(/compacted again/);
  }, 60_000);
});

describeWithFixtures("tokens of an audit view", () => {
  it("auditing a recorded compaction, the figures are of the contexts just before and just after it, not of the strategy behind", async () => {
    await loadSource(bytes(FILE));
    const strategyView = useApp.getState().view!;
    await openAudit(1);
    const view = useApp.getState().view!;
    expect(view.audit?.index).toBe(1);
    expect(view.id).not.toBe(strategyView.id);
    await countViewTokens(view.id);
    const exact = useTokens.getState().exact!;
    expect(exact.viewId).toBe(view.id);
    await loadTokenizer();
    const session = loadSession(readFixture(FILE));
    const compaction = session.recordedCompactions(session.defaultLeafId)[0]!;
    const expected = tokenStats(compaction.before, compaction.after, session.format);
    expect(exact.figures.original).toBe(expected.originalTokens);
    expect(exact.figures.active).toBe(expected.activeTokens);
    expect(exact.figures.composition.reduce((sum, p) => sum + p.tokens, 0)).toBe(expected.activeTokens);
    // The budgeted figures the view arrives with are of the same contexts (estimates allowed, not the strategy's).
    expect(view.tokens.active).toBeLessThan(expected.originalTokens);
  }, 60_000);
});
