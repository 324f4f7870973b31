/** The HTML audit report: self-contained, escaped, with its own CSP, and the same scores as the checkride. */
import fc from "fast-check";
import { expect, it } from "vitest";
import { checkrideSession } from "../../core/evaluate/evaluate.ts";
import { renderHtml, scriptJson } from "../../core/report/html.ts";
import { buildReport } from "../../core/report/model.ts";
import { loadSession } from "../../core/session.ts";
import { readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const SOURCE = { name: "x.jsonl", bytes: 1, sha256: "a".repeat(64) };

describeWithFixtures("the HTML report", () => {
  it("requests nothing: no external URL in any src or href, a CSP of its own", async () => {
    const session = loadSession(readFixture("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    const html = renderHtml(await buildReport(session, SOURCE, { strategies: ["transparent", "recorded"] }));
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
    expect(html).not.toMatch(/\s(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
  });

  it("escapes session text (and keeps it out of the script's reach)", async () => {
    const hostile = JSON.stringify([
      { role: "user", content: '</script><script>alert(1)</script><img src=x onerror="alert(2)">' },
      { role: "assistant", content: "ok" },
    ]);
    const html = renderHtml(await buildReport(loadSession(hostile), SOURCE, { strategies: ["transparent"] }));
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain('<img src=x onerror="alert(2)">');
    expect(html.match(/<script/g)).toHaveLength(2); // the JSON data and the page's own script
  });

  it("shows the same scores as the checkride", async () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const report = await buildReport(session, SOURCE, { strategies: ["transparent", "recorded"] });
    const direct = await checkrideSession(session, { strategies: ["transparent", "recorded"], checkride: { reader: "literal" } });
    expect(report.checkride.map((r) => [r.strategy, r.passed, r.asked])).toEqual(direct.map((r) => [r.strategy, r.passed, r.asked]));
    const html = renderHtml(report);
    expect(html).toContain('data-score="transparent">5/5');
    expect(html).toContain('data-score="recorded">4/5');
  });
});

it("scriptJson escapes <, >, &, U+2028 and U+2029 in one pass, as the five replaces it stands for did", () => {
  const fiveReplaces = (value: unknown) =>
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029");
  expect(scriptJson({ text: "</script><!-- a&b \u2028\u2029" })).toBe('{"text":"\\u003c/script\\u003e\\u003c!-- a\\u0026b \\u2028\\u2029"}');
  const risky = fc.string({ unit: fc.constantFrom("<", ">", "&", "\u2028", "\u2029", "a", "\\", '"', "\n", "é") });
  fc.assert(
    fc.property(fc.record({ id: risky, text: risky }), (row) => {
      expect(scriptJson(row)).toBe(fiveReplaces(row));
    }),
  );
});
