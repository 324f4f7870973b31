/** The CLI end to end: output shapes, exit codes, one-line errors. */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-cli-"));

describe("help", () => {
  it("prints the usage and exits 0, also after a command that would need a file", () => {
    for (const args of [["--help"], ["help"], ["-h"], ["compact", "--help"], ["verify", "-h"]]) {
      const { status, stdout, stderr } = runCli(args);
      expect(status).toBe(0);
      expect(stderr).toBe("");
      expect(stdout).toMatch(/^usage:\n  npm run cli -- inspect/);
    }
  });
});

describeWithFixtures("inspect", () => {
  it("prints the summary object", () => {
    const { status, stdout } = runCli(["inspect", fixturePath("composed/pi-v3-tree.jsonl")]);
    expect(status).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      format: "pi",
      formatVersion: "3",
      leafId: "c0000010",
      branchMessages: 18,
      recordedContextMessages: 11,
      toolCalls: 7,
      branchToolCalls: 6,
      warnings: [],
    });
    expect(summary.leaves).toEqual(["b0000004", "c0000010"]);
  });

  it("--leaf picks another branch; --format overrides", () => {
    const { stdout } = runCli(["inspect", fixturePath("composed/pi-v3-tree.jsonl"), "--leaf", "b0000004", "--format", "pi"]);
    expect(JSON.parse(stdout)).toMatchObject({ leafId: "b0000004", branchMessages: 8 });
  });

  it("bad input exits 2 with one line on stderr naming file and line, no stack", () => {
    const bad = join(temp, "bad.jsonl");
    writeFileSync(bad, '{"type":"session","version":3,"id":"s"}\n{"type":"message","id":"a","parentId":"zz","message":{"role":"user","content":"x"}}\n');
    const { status, stderr, stdout } = runCli(["inspect", bad, "--strict"]);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([`error: ${bad}:2: parent "zz" names no entry`]);
  });

  it("a missing file and an unknown option are one-line errors too", () => {
    expect(runCli(["inspect", join(temp, "nope.jsonl")]).stderr).toMatch(/^error: .*nope\.jsonl:0: no such file\n$/);
    const unknown = runCli(["inspect", "x", "--bogus"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown option --bogus/);
    const unwritable = runCli(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--output", join(temp, "missing-dir", "cp.json")]);
    expect(unwritable.status).toBe(2);
    expect(unwritable.stderr).toBe(`error: ${join(temp, "missing-dir", "cp.json")}:0: no such directory\n`);
  });
});

describeWithFixtures("compact and verify", () => {
  it("reads a file in pieces, and reads it whole where it must: one JSON value, --strict, a directory, a file not there", async () => {
    const { loadSession } = await import("../../core/session.ts");
    const { compactSession } = await import("../../core/compact.ts");
    const { serializeCheckpoint } = await import("../../core/checkpoint-json.ts");
    for (const [relative, flags] of [
      ["composed/openai-chat.json", []],
      ["composed/pi-v3-tree.jsonl", ["--strict"]],
      ["pi/JohnnyLai92__pi-mono__6edf3497.jsonl", []],
    ] as const) {
      const out = join(temp, "pieces.json");
      expect(runCli(["compact", fixturePath(relative), ...flags, "--output", out]).status).toBe(0);
      // The same checkpoint as compacting the whole bytes in process.
      const bytes = readFileSync(fixturePath(relative));
      const source = { name: relative.split("/").pop()!, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
      const expected = serializeCheckpoint(await compactSession(loadSession(bytes), source, { strategy: "transparent", countTokens: false }));
      expect(readFileSync(out, "utf8")).toBe(expected + "\n");
    }
    expect(runCli(["compact", temp]).stderr).toContain("is a directory");
    expect(runCli(["compact", join(temp, "not-there.jsonl")]).stderr).toContain("no such file");
  });

  it("writes a checkpoint that verifies; a tampered one exits 1 naming the id", () => {
    const out = join(temp, "cp.json");
    const compact = runCli(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--output", out]);
    expect(compact.status).toBe(0);
    const checkpoint = JSON.parse(readFileSync(out, "utf8"));
    expect(checkpoint.schema).toBe("session-inspector/checkpoint@1");
    expect(checkpoint.source).toMatchObject({ name: "pi-v3-tree.jsonl", format: "pi", formatVersion: "3", leafId: "c0000010", branchMessages: 18 });
    const sourceBytes = readFileSync(fixturePath("composed/pi-v3-tree.jsonl"));
    expect(checkpoint.source.sha256).toBe(createHash("sha256").update(sourceBytes).digest("hex"));
    expect(checkpoint.source.bytes).toBe(sourceBytes.length);
    expect(runCli(["verify", out]).status).toBe(0);

    const victim = checkpoint.archive[1];
    victim.payload[0].text = victim.payload[0].text.replace(/./, "#");
    const tampered = join(temp, "tampered.json");
    writeFileSync(tampered, JSON.stringify(checkpoint));
    const verify = runCli(["verify", tampered]);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain(`mismatch: ${victim.id}: sha256 mismatch`);
  });

  it("--previous keeps ids over the real prefix → grown pair; --max-prose-characters caps", () => {
    const first = join(temp, "first.json");
    expect(runCli(["compact", fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl"), "--output", first]).status).toBe(0);
    const grown = runCli(["compact", fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"), "--previous", first]);
    expect(grown.status).toBe(0);
    const before = JSON.parse(readFileSync(first, "utf8"));
    const after = JSON.parse(grown.stdout);
    const hashes = new Map(after.archive.map((e: { id: string; sha256: string }) => [e.id, e.sha256]));
    for (const entry of before.archive) expect(hashes.get(entry.id)).toBe(entry.sha256);

    const capped = JSON.parse(runCli(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--max-prose-characters", "100"]).stdout);
    expect(capped.stats.capped).toBeGreaterThan(0);
    expect(capped.strategy).toEqual({ name: "transparent", options: { maxProseChars: 100 } });
    expect(runCli(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--strategy", "nope"]).stderr).toMatch(/unknown strategy "nope"/);
  });
});

describeWithFixtures("checkride", () => {
  it("--json prints {results:[{strategy, reader, probes, passed, asked}]} for every strategy", () => {
    const { status, stdout } = runCli(["checkride", fixturePath("composed/pi-v3-tree.jsonl"), "--strategy", "all", "--json"]);
    expect(status).toBe(0);
    const { results } = JSON.parse(stdout);
    expect(results.map((r: { strategy: string }) => r.strategy)).toEqual([
      "transparent",
      "recorded",
      "pi-default",
      "handoff · summary alone",
      "handoff · summary + staples",
      "handoff",
      "brief",
    ]);
    for (const result of results) {
      expect(result.reader).toBe("literal");
      expect(Object.keys(result.probes[0]).sort()).toEqual(["answer", "evidence", "expected", "id", "question", "status"]);
    }
    expect(results[0]).toMatchObject({ passed: 5, asked: 5 });
    expect(results[1].probes.find((p: { id: string }) => p.id === "rules").status).toBe("fail");
  });

  it("lists the rule candidates under the probe, not graded, with why (text and --json)", () => {
    const chat = join(temp, "candidates.json");
    writeFileSync(
      chat,
      JSON.stringify([
        { role: "user", content: "Add a CSV export. I don't want a header row in the file." },
        { role: "assistant", content: "Added it." },
      ]),
    );
    const text = runCli(["checkride", chat, "--strategy", "transparent"]).stdout;
    expect(text).toMatch(/skipped\s+rules\s+no rule the extractor is sure of; accept a candidate to grade it/);
    expect(text).toMatch(/1 candidate, not graded:\n\s+\? I don't want a header row in the file\. \(says what the user wants/);
    const { results } = JSON.parse(runCli(["checkride", chat, "--strategy", "transparent", "--json"]).stdout);
    expect(results[0].probes.find((p: { id: string }) => p.id === "rules").candidates).toEqual([
      { text: "I don't want a header row in the file.", why: expect.stringMatching(/what the user wants/) },
    ]);
  });

  it("the endpoint reader needs a URL and a model; a memory file is read", () => {
    expect(runCli(["checkride", fixturePath("composed/pi-v3-tree.jsonl"), "--reader", "endpoint"]).stderr).toMatch(/needs --endpoint URL and --model/);
    const memory = join(temp, "memory.md");
    writeFileSync(memory, "## Next\n- Add a test for negative amounts in test/ledger.test.ts\n");
    const { results } = JSON.parse(runCli(["checkride", fixturePath("composed/pi-v3-tree.jsonl"), "--strategy", "transparent", "--memory", memory, "--json"]).stdout);
    expect(results[0].probes.find((p: { id: string }) => p.id === "next").status).toBe("pass");
  });
});
