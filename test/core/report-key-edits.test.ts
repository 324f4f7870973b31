/** The exported report carries the user's edits of the answer key, marked, and scores with them. */
import { expect, it } from "vitest";
import { renderHtml } from "../../core/report/html.ts";
import { renderMarkdown } from "../../core/report/markdown.ts";
import { buildReport } from "../../core/report/model.ts";
import { loadSession } from "../../core/session.ts";
import { describeWithFixtures, readFixture } from "../helpers/fixtures.ts";

const FILE = { name: "pi-v3-tree.jsonl", bytes: 1, sha256: "0".repeat(64) };

describeWithFixtures("report with an edited key", () => {
  it("marks edits as the user's and grades with them; needs-a-model tiers are not scored", async () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const plain = await buildReport(session, FILE, { strategies: ["transparent", "handoff"] });
    const verify = plain.checkride[0]!.probes.find((p) => p.id === "verify")!;
    expect(verify.status).toBe("pass");
    const edits = { struck: [{ probe: "verify", fact: verify.expected! }], added: [{ probe: "files", text: "docs/never.md" }] };
    const edited = await buildReport(session, FILE, { strategies: ["transparent", "handoff"], edits });
    expect(edited.keyEdits).toEqual(edits);
    expect(edited.checkride[0]!.probes.find((p) => p.id === "verify")!.status).toBe("skipped");
    expect(edited.checkride[0]!.asked).toBe(plain.checkride[0]!.asked - 1);
    const md = renderMarkdown(edited);
    expect(md).toContain("**Answer key edited by the user**");
    expect(md).toContain("- added to files: docs/never.md");
    expect(md).toMatch(/\| handoff · summary alone \|.*\| needs a model \|/);
    const html = renderHtml(edited);
    expect(html).toContain("data-key-edits");
    expect(html).toContain("(edited by the user)");
    expect(renderMarkdown(plain)).not.toContain("edited by the user");
  });
});
