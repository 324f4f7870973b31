/**
 * Redaction with planted secrets of every kind: every one is found, masking
 * is consistent, and nothing masked survives anywhere in the report (HTML or
 * Markdown) or the redacted export.
 */
import { expect, it } from "vitest";
import { verifyArchive } from "../../core/archive.ts";
import { serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { compactSession } from "../../core/compact.ts";
import { SECRET_PATTERNS, maskString, masksFor, redactCheckpoint, scanMessages, scanText } from "../../core/redact.ts";
import { renderHtml } from "../../core/report/html.ts";
import { renderMarkdown } from "../../core/report/markdown.ts";
import { buildReport } from "../../core/report/model.ts";
import { loadSession } from "../../core/session.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { allFixtures, describeWithFixtures, fixturesPresent, readFixture } from "../helpers/fixtures.ts";
import { PLANTED, sessionWithSecrets } from "../helpers/secrets.ts";

// Built on a composed fixture: read only where the fixtures are present (every suite using it is skipped otherwise).
const session = fixturesPresent ? loadSession(sessionWithSecrets()) : (undefined as never);
const findings = fixturesPresent ? scanMessages(session.branch(null)) : (undefined as never);
const SOURCE = { name: "secrets.jsonl", bytes: 1, sha256: "0".repeat(64) };

describeWithFixtures("the secret scan", () => {
  it("finds every planted secret, each under its kind", () => {
    for (const [kind, value] of Object.entries(PLANTED)) {
      const finding = findings.find((f) => f.value === value);
      expect(finding, `${kind} found`).toBeDefined();
      expect(finding!.kind).toBe(kind);
    }
  });

  it("counts occurrences and messages, and previews without revealing", () => {
    const email = findings.find((f) => f.value === PLANTED.email)!;
    expect(email.messageIds.sort()).toEqual(["a0000003", "c0000004"]);
    expect(email.preview).not.toContain("reviewer");
    const bearer = findings.find((f) => f.value === PLANTED["bearer-token"])!;
    expect(bearer.occurrences).toBe(2);
  });

  it("does not report ordinary text", () => {
    const hits: string[] = [];
    scanText("The ledger export drops rows; npm test -- ledger passed; see issue #318 and commit 4f1c2ab.", (_kind, value) => hits.push(value));
    expect(hits).toEqual([]);
  });
});

describeWithFixtures("masking", () => {
  const masks = masksFor(findings);

  it("replaces the same value with the same placeholder everywhere", () => {
    const placeholder = masks.get(PLANTED.email)!;
    expect(placeholder).toMatch(/^\[REDACTED email-\d+\]$/);
    expect(maskString(`${PLANTED.email} and again ${PLANTED.email}`, masks)).toBe(`${placeholder} and again ${placeholder}`);
  });

  it.each(STRATEGIES.map((s) => s.name))("a redacted %s export holds no secret and still verifies", async (strategy) => {
    const checkpoint = await compactSession(session, SOURCE, { strategy });
    const redacted = await redactCheckpoint(checkpoint, findings);
    const text = serializeCheckpoint(redacted);
    for (const value of Object.values(PLANTED)) expect(text.includes(value), `${strategy} leaks ${value.slice(0, 12)}`).toBe(false);
    expect(await verifyArchive(redacted.archive)).toEqual([]);
    expect((redacted.source as unknown as { redaction: { masked: number } }).redaction.masked).toBe(findings.length);
    // The original checkpoint is untouched.
    expect(serializeCheckpoint(checkpoint)).toContain(PLANTED["openai-key"]);
  });

  it("the HTML report and the Markdown scorecard hold no masked value", async () => {
    const report = await buildReport(session, SOURCE, { strategies: STRATEGIES.map((s) => s.name), redact: findings });
    const html = renderHtml(report);
    const md = renderMarkdown(report);
    for (const value of Object.values(PLANTED)) {
      expect(html.includes(value)).toBe(false);
      expect(md.includes(value)).toBe(false);
      // Also not in a JSON-escaped form inside the embedded rows.
      expect(html.includes(JSON.stringify(value).slice(1, -1))).toBe(false);
    }
    expect(html).toContain("[REDACTED email-");
    expect(md).toContain("Redacted before sharing");
  });

  it("a finding the user keeps stays, consistently", async () => {
    const kept = findings.filter((f) => f.value !== PLANTED.email);
    const report = await buildReport(session, SOURCE, { strategies: ["transparent"], redact: kept });
    const html = renderHtml(report);
    expect(html).toContain(PLANTED.email);
    expect(html.includes(PLANTED["openai-key"])).toBe(false);
  });
});

/** Every string inside a value (keys are not scanned). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === "object") for (const inner of Object.values(value)) stringsOf(inner, out);
  return out;
}

describeWithFixtures("the secret scan's clues", () => {
  // The scan skips an expression on a text holding none of its clues: that is only right if every
  // match holds one. Checked on every string of every real session and of the planted one.
  it("every match of every expression holds one of its clues", () => {
    const texts = [sessionWithSecrets(), ...allFixtures().map((fixture) => readFixture(fixture))].flatMap((bytes) =>
      loadSession(bytes)
        .branch(null)
        .flatMap((m) => stringsOf([m.blocks, m.meta])),
    );
    let matches = 0;
    for (const pattern of SECRET_PATTERNS) {
      for (const text of texts) {
        for (const match of text.matchAll(pattern.regex)) {
          matches++;
          expect(
            pattern.clues.some((clue) => match[0].includes(clue)),
            `${pattern.kind}: ${match[0].slice(0, 20)}`,
          ).toBe(true);
        }
      }
    }
    // Real sessions do hold matches (e-mail addresses, password assignments…): the check is not vacuous.
    expect(matches).toBeGreaterThan(Object.keys(PLANTED).length);
  });

  it("a text without a clue is not searched, one with it is", () => {
    const found: string[] = [];
    scanText("user alice.example.com wrote nothing secret", (kind) => found.push(kind));
    expect(found).toEqual([]);
    scanText("mail alice@example.com", (kind) => found.push(kind));
    expect(found).toEqual(["email"]);
  });
});
