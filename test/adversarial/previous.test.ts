/**
 * `compact --previous` trusts only a checkpoint of this source (or of the same
 * JSON Lines file before it grew) that still verifies, and only the strategy
 * that recompacts takes it; every other case is one line and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-previous-"));
const PREFIX = fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl");
const GROWN = fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl");
const CLAUDE = fixturePath("claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl");
const CODEX = fixturePath("codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl");

function checkpointOf(file: string, name: string, extra: string[] = []): string {
  const out = join(temp, name);
  const result = runCli(["compact", file, "--output", out, ...extra]);
  expect(result.status, result.stderr).toBe(0);
  return out;
}

function refused(args: string[], pattern: RegExp): void {
  const { status, stdout, stderr } = runCli(args);
  expect(status, stderr).toBe(2);
  expect(stdout).toBe("");
  expect(stderr.trimEnd().split("\n")[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack
}

describeWithFixtures("compact --previous", () => {
  const prefix = checkpointOf(PREFIX, "prefix.json");

  it("takes the checkpoint of the same file before it grew, says so, and the result verifies", () => {
    const out = join(temp, "grown.json");
    const { status, stderr } = runCli(["compact", GROWN, "--previous", prefix, "--output", out]);
    expect(status, stderr).toBe(0);
    expect(stderr).toMatch(/^note: the session grew since the previous checkpoint \(\d+ → \d+ bytes\); its first \d+ bytes are the earlier file/m);
    expect(runCli(["verify", out]).status).toBe(0);
    const first = JSON.parse(readFileSync(prefix, "utf8"));
    const ids = new Map(JSON.parse(readFileSync(out, "utf8")).archive.map((e: { id: string; sha256: string }) => [e.id, e.sha256]));
    for (const entry of first.archive) expect(ids.get(entry.id)).toBe(entry.sha256);
  });

  it("takes a checkpoint of the very same file without a note", () => {
    const { status, stderr } = runCli(["compact", PREFIX, "--previous", prefix, "--output", join(temp, "same.json")]);
    expect(status).toBe(0);
    expect(stderr).not.toContain("note:");
  });

  it("refuses a checkpoint of another format", () => {
    refused(["compact", CLAUDE, "--previous", checkpointOf(CODEX, "codex.json")], /:0: the previous checkpoint is of a codex session; this one is claude$/);
  });

  it("refuses a checkpoint of another file of the same format, and of the grown file for its prefix", () => {
    const grown = checkpointOf(GROWN, "grown-first.json");
    refused(["compact", PREFIX, "--previous", grown], /is of another source \(sha256 [0-9a-f]{12}…, \d+ bytes\), not this file or an earlier state of it$/);
    const raquezha = fixturePath("pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl");
    refused(["compact", raquezha, "--previous", prefix], /is of another source/);
  });

  it("refuses a message array with positional ids unless it is the same file", () => {
    const array = JSON.parse(readFileSync(fixturePath("composed/openai-chat.json"), "utf8"));
    const mine = join(temp, "chat.json");
    writeFileSync(mine, JSON.stringify(array));
    const other = join(temp, "chat-other.json");
    writeFileSync(other, JSON.stringify([...array, { role: "user", content: "and one more thing" }]));
    const previous = checkpointOf(mine, "chat-checkpoint.json");
    refused(["compact", other, "--previous", previous], /another openai message array .*its ids are positions/);
    expect(runCli(["compact", mine, "--previous", previous]).status).toBe(0);
  });

  it("refuses a tampered checkpoint before merging anything", () => {
    const tampered = JSON.parse(readFileSync(prefix, "utf8"));
    tampered.archive[0].payload = { type: "text", text: "forged" };
    const file = join(temp, "tampered.json");
    writeFileSync(file, JSON.stringify(tampered));
    refused(["compact", GROWN, "--previous", file], /:0: the previous checkpoint fails verification \(.+sha256 mismatch/);
  });

  it.each(["recorded", "pi-default", "handoff", "brief"])("the %s strategy refuses --previous instead of ignoring it", (strategy) => {
    refused(["compact", GROWN, "--strategy", strategy, "--previous", prefix], new RegExp(`^error: --previous works with transparent only: the ${strategy} strategy`));
  });

  it("refuses a checkpoint another strategy made", () => {
    const recorded = checkpointOf(PREFIX, "recorded.json", ["--strategy", "recorded"]);
    refused(["compact", GROWN, "--previous", recorded], /made by the recorded strategy; only a transparent checkpoint can be recompacted$/);
  });

  it("refuses a file that is not a checkpoint with one line", () => {
    const junk = join(temp, "junk.json");
    writeFileSync(junk, '{"schema":"session-inspector/checkpoint@1","active":[],"archive":[]}');
    refused(["compact", GROWN, "--previous", junk], /names no source/);
  });
});
