/**
 * Every fact carries its source: on every readable fixture, each source names
 * a message on the branch, and a span, when given, holds exactly the quote.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { extractFacts, type FactSource } from "../../../core/checkride/facts.ts";
import { headerIds, sessionCwd } from "../../../core/checkride/session.ts";
import { runCheckride } from "../../../core/checkride/run.ts";
import { textOf, type Session } from "../../../core/model.ts";
import { loadSession } from "../../../core/session.ts";
import { allFixtures, fixturePath, describeWithFixtures } from "../../helpers/fixtures.ts";

function readable(relative: string): Session | undefined {
  try {
    return loadSession(readFileSync(fixturePath(relative)));
  } catch {
    return undefined; // a format whose reader has not landed yet (the checkride test reports it)
  }
}

describeWithFixtures("fact sources", () => {
  it.each(allFixtures())("%s: every fact points at a branch message, spans hold their quotes", async (relative) => {
    const session = readable(relative);
    if (!session) return;
    const branch = session.branch(session.defaultLeafId);
    const byId = new Map(branch.map((m) => [m.id, m]));
    const facts = extractFacts(branch, { cwd: sessionCwd(session), format: session.format, sessionIds: headerIds(session.header) });
    const sources: FactSource[] = [
      ...facts.rules.map((r) => r.source),
      ...facts.anchors.map((a) => a.source),
      ...Object.values(facts.fileSources),
      ...(facts.lastRun ? [facts.lastRun.source] : []),
      ...(facts.unresolvedError ? [facts.unresolvedError.source] : []),
      ...(facts.latestRequest ? [facts.latestRequest.source] : []),
    ];
    expect(sources.length).toBe(
      facts.rules.length + facts.anchors.length + Object.keys(facts.fileSources).length + (facts.lastRun ? 1 : 0) + (facts.unresolvedError ? 1 : 0) + (facts.latestRequest ? 1 : 0),
    );
    for (const source of sources) {
      const message = byId.get(source.messageId);
      expect(message, source.messageId).toBeDefined();
      if (source.span) expect(textOf(message!).slice(...source.span)).toBe(source.quote);
      if (message!.line !== undefined) expect(source.line).toBe(message!.line);
    }
    for (const rule of facts.rules) expect(rule.source.span).toBeDefined();
    // The checkride's results carry them on to the app and the report.
    const result = await runCheckride("transparent", branch, branch, { reader: "literal" }, facts);
    for (const probe of result.probes.filter((p) => p.status !== "skipped" && ["rules", "anchors", "verify", "error", "intent"].includes(p.id))) {
      expect(probe.sources?.length, probe.id).toBeGreaterThan(0);
    }
  });
});
