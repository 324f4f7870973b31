/**
 * The checkride: facts with known ground truth, grading rules, both readers,
 * and every real fixture.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { extractFacts, parseMemory, patchPaths, rulesIn, significantPart } from "../../../core/checkride/facts.ts";
import { buildProbes } from "../../../core/checkride/probes.ts";
import { checkrideSession } from "../../../core/evaluate/evaluate.ts";
import { endpointReader } from "../../../core/checkride/readers.ts";
import { contextText } from "../../../core/checkride/context.ts";
import { runCheckride } from "../../../core/checkride/run.ts";
import { distinctiveTokens, saysItDoesNotKnow } from "../../../core/checkride/tokens.ts";
import { loadSession } from "../../../core/session.ts";
import { startFakeEndpoint, type FakeEndpoint } from "../../helpers/fake-endpoint.ts";
import { allFixtures, readFixture, describeWithFixtures, fixturesPresent } from "../../helpers/fixtures.ts";

// Read only where the fixtures are present: every suite that uses it is skipped otherwise.
const tree = fixturesPresent ? loadSession(readFixture("composed/pi-v3-tree.jsonl")) : (undefined as never);

describeWithFixtures("facts from the record", () => {
  const facts = extractFacts(tree.branch(null), { cwd: "/home/dev/ledger" });

  it("files modified on the current branch only (never the abandoned branch's migration)", () => {
    expect(facts.modifiedFiles).toEqual(["src/export.ts", "src/csv.ts"]);
    expect(facts.modifiedFiles.join()).not.toContain("migrations");
  });

  it("the last run passed, so there is no unresolved error", () => {
    expect(facts.lastRun).toMatchObject({ command: "npm test -- ledger", passed: true });
    expect(facts.unresolvedError).toBeUndefined();
  });

  it("the first user message sets a rule (the whole sentence); the latest request is verbatim", () => {
    expect(facts.rules.map((r) => r.text)).toEqual(["Rules: never touch migrations/, and always run `npm test -- ledger` before you say it works."]);
    expect(facts.latestRequest?.text).toBe("Great. Next, add a test for negative amounts in test/ledger.test.ts and open a PR that references issue #318.");
    expect(facts.anchors.map((a) => a.value)).toEqual(["#318"]);
  });

  it("a failing last run is the unresolved error, from structured fields first", () => {
    const codex = loadSession(readFixture("composed/codex-modern-compacted.jsonl"));
    const codexFacts = extractFacts(codex.branch(null), { cwd: "/work/api" });
    expect(codexFacts.lastRun).toMatchObject({ command: "npm test", passed: false, exitCode: 1 });
    expect(codexFacts.unresolvedError?.text).toBe("Error: ECONNREFUSED 127.0.0.1:5432");
    expect(codexFacts.modifiedFiles).toEqual(["src/routes/health.ts"]);
    expect(codexFacts.anchors.map((a) => a.value)).toEqual(expect.arrayContaining(["4f1c2ab", "ECONNREFUSED"]));
  });

  it("helpers: patch paths, cd prefixes, whole rule sentences, memory sections", () => {
    expect(patchPaths("*** Begin Patch\n*** Update File: a/b.rs\n*** Add File: c.md\n*** End Patch")).toEqual(["a/b.rs", "c.md"]);
    expect(significantPart("cd codex-rs && cargo test")).toBe("cargo test");
    expect(rulesIn("Fix it. Never push to main; always open a PR. Thanks.")).toEqual(["Never push to main; always open a PR."]);
    expect(parseMemory("# Plan\n- [x] read code\n- [ ] write test\n## Next\n- open PR #12\n## Decisions\n- keep the API\n")).toEqual({
      done: ["read code"],
      plan: ["write test"],
      next: ["open PR #12"],
      decisions: ["keep the API"],
    });
  });
});

describeWithFixtures("grading", () => {
  const probes = buildProbes(extractFacts(tree.branch(null), { cwd: "/home/dev/ledger" }));
  const probe = (id: string) => probes.find((p) => p.id === id)!;

  it("is per answer: an answer to one probe cannot pass another", () => {
    const filesAnswer = "I changed src/export.ts and src/csv.ts";
    expect(probe("files").grade(filesAnswer).pass).toBe(true);
    expect(probe("verify").grade(filesAnswer).pass).toBe(false);
    expect(probe("intent").grade(filesAnswer).pass).toBe(false);
  });

  it("is case-insensitive and punctuation-tolerant; basenames count for files", () => {
    expect(probe("files").grade("EXPORT.TS, and csv.ts.").pass).toBe(true);
    expect(probe("verify").grade("Ran `NPM TEST -- LEDGER`: it PASSED.").pass).toBe(true);
    expect(probe("verify").grade("npm test -- ledger failed").pass).toBe(false);
    expect(probe("verify").grade("npm test -- ledger failed at first, then passed").pass).toBe(true);
  });

  it("an answer that says it does not know passes nothing", () => {
    expect(saysItDoesNotKnow("I don't know.")).toBe(true);
    for (const p of probes.filter((p) => p.expected !== null)) expect(p.grade("I don't know").pass).toBe(false);
  });

  it("rules need their rule word: saying you did not touch migrations is not the rule", () => {
    expect(probe("rules").grade("I did not touch migrations/ and npm test -- ledger passes").pass).toBe(false);
    expect(probe("rules").grade("Never touch migrations/. Always run npm test -- ledger before saying it works.").pass).toBe(true);
  });

  it("skips what has no ground truth, and says why", () => {
    expect(probe("error").expected).toBeNull();
    expect(probe("error").skipReason).toMatch(/did not fail/);
    expect(probe("done").skipReason).toBe("needs a memory.md");
  });

  it("distinctive tokens drop stop words and keep paths and non-Latin words", () => {
    expect(distinctiveTokens("Fix the bug in src/a.ts, please.")).toEqual(["fix", "bug", "src/a.ts"]);
    expect(distinctiveTokens("內容不用解答")).toEqual(["內容不用解答"]);
  });
});

describeWithFixtures("the literal reader on the composed ground truth", () => {
  it("transparent passes files, verify, intent and rules; the recorded compaction fails rules", async () => {
    const [transparent, recorded] = await checkrideSession(tree, { strategies: ["transparent", "recorded"], checkride: { reader: "literal" } });
    const status = (result: typeof transparent) => Object.fromEntries(result!.probes.map((p) => [p.id, p.status]));
    expect(status(transparent)).toMatchObject({ files: "pass", verify: "pass", intent: "pass", rules: "pass", error: "skipped" });
    expect(status(recorded)).toMatchObject({ rules: "fail" });
    expect(transparent!.scoreLabel).toBe("facts present in context");
    // Evidence points at messages of the active context.
    const rules = transparent!.probes.find((p) => p.id === "rules")!;
    expect(rules.evidence).toEqual(["a0000003"]);
  });

  it("memory-backed probes are asked once a memory.md is loaded", async () => {
    const memory =
      "## Plan\n- [x] Keep zero-amount rows in the CSV export\n- [ ] Test negative amounts\n## Next\n- Add a test for negative amounts in test/ledger.test.ts\n## Decisions\n- Never touch migrations/\n";
    const [result] = await checkrideSession(tree, { strategies: ["transparent"], checkride: { reader: "literal", memory } });
    const byId = Object.fromEntries(result!.probes.map((p) => [p.id, p]));
    expect(byId.done!.status).not.toBe("skipped");
    expect(byId.next!.status).toBe("pass");
    expect(byId.constraints!.status).toBe("pass");
  });
});

describeWithFixtures("every real fixture", () => {
  it.each(allFixtures())("%s: probes with ground truth are asked; transparent never scores below recorded", async (relative) => {
    const session = loadSession(readFixture(relative));
    const results = await checkrideSession(session, { strategies: "all", checkride: { reader: "literal" } });
    const transparent = results.find((r) => r.strategy === "transparent")!;
    const recorded = results.find((r) => r.strategy === "recorded")!;
    for (const result of results) {
      if (result.needsModel) {
        // A summary tier with no model to write the summary: skipped, never scored as failures.
        expect(result.strategy).toMatch(/summary alone$/);
        expect(result.probes.every((p) => p.status === "skipped")).toBe(true);
        expect(result.asked).toBe(0);
        continue;
      }
      for (const probe of result.probes) {
        expect(["pass", "fail", "skipped"]).toContain(probe.status);
        expect(probe.status === "skipped").toBe(probe.expected === null);
      }
      expect(result.asked).toBe(result.probes.filter((p) => p.status !== "skipped").length);
    }
    expect(transparent.passed).toBeGreaterThanOrEqual(recorded.passed);
  });
});

describeWithFixtures("the endpoint reader (a local OpenAI-compatible server)", () => {
  let server: FakeEndpoint;
  const branch = tree.branch(null);
  const goodAnswers = {
    files: "src/export.ts and src/csv.ts",
    verify: "npm test -- ledger, it passed",
    intent: "add a test for negative amounts in test/ledger.test.ts and open a PR referencing issue #318",
    anchors: "#318",
    rules: "never touch migrations/; always run npm test -- ledger before you say it works",
  };
  beforeAll(async () => {
    server = await startFakeEndpoint(goodAnswers);
  });
  afterAll(async () => {
    await server.close();
  });

  it("asks once per probe set, sends the key, and grades the model's answers", async () => {
    const result = await runCheckride("transparent", branch, branch, { reader: "endpoint", endpoint: { url: `${server.url}/ok/v1`, model: "tiny", apiKey: "sk-test" } });
    expect(server.requests.filter((r) => r.path === "/ok/v1/chat/completions")).toHaveLength(1);
    expect(server.requests.at(-1)!.authorization).toBe("Bearer sk-test");
    expect((server.requests.at(-1)!.body as { model: string }).model).toBe("tiny");
    expect(result.scoreLabel).toBe("answered correctly by the model");
    expect(result.passed).toBe(5);
    expect(result.asked).toBe(5);
  });

  it("a 500, a timeout, malformed JSON or an unreadable reply make probes inconclusive, never fail", async () => {
    for (const [path, reason] of [
      ["/error500", /HTTP 500/],
      ["/malformed", /not the JSON object/],
      ["/notjson", /could not be reached|not the JSON|no message content/],
      ["/slow", /timed out/],
    ] as const) {
      const result = await runCheckride("transparent", branch, branch, { reader: "endpoint", endpoint: { url: `${server.url}${path}`, model: "m", timeoutMs: 500 } });
      const asked = result.probes.filter((p) => p.status !== "skipped");
      expect(
        asked.every((p) => p.status === "inconclusive"),
        path,
      ).toBe(true);
      expect(asked[0]!.note).toMatch(reason);
      expect(result.passed).toBe(0);
      expect(result.asked).toBe(0);
    }
  });

  it("a connection refused is inconclusive too", async () => {
    const answers = await endpointReader(buildProbes(extractFacts(branch)), contextText(branch), { url: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 });
    expect(Object.values(answers).every((a) => a?.inconclusive)).toBe(true);
  });
});
