/** An output that is an input is refused before any work; an empty --output is a usage error that leaves nothing behind. */
import { spawnSync } from "node:child_process";
import { copyFileSync, linkSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { LAUNCHER, runCli } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures, fixturesPresent } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-guards-"));
const session = join(temp, "session.jsonl");
// Set up only where the fixtures are present: both suites are skipped otherwise.
if (fixturesPresent) {
  copyFileSync(fixturePath("composed/pi-v3-tree.jsonl"), session);
  symlinkSync(session, join(temp, "link.jsonl"));
  linkSync(session, join(temp, "hard.jsonl"));
}
const original = fixturesPresent ? readFileSync(session) : (undefined as never);

describeWithFixtures("an output that resolves to an input", () => {
  it.each([
    ["compact, the same path", ["compact", session, "--output", session]],
    ["compact, a symbolic link to it", ["compact", session, "--output", join(temp, "link.jsonl")]],
    ["compact, a hard link to it", ["compact", session, "--output", join(temp, "hard.jsonl")]],
    ["compact, a relative spelling", ["compact", session, `--output=${temp}/./session.jsonl`]],
    ["report (HTML)", ["report", session, "--output", session]],
    ["report (Markdown)", ["report", session, "--format", "md", "--output", join(temp, "link.jsonl")]],
  ])("%s is refused with one line; the session is untouched", (_name, args) => {
    const { status, stdout, stderr } = runCli(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^error: .+:0: is the input .+: refusing to overwrite it/);
    expect(readFileSync(session).equals(original)).toBe(true);
  });

  it("the --previous checkpoint as the output is refused too", () => {
    const checkpoint = join(temp, "previous.json");
    expect(runCli(["compact", session, "--output", checkpoint]).status).toBe(0);
    const before = readFileSync(checkpoint);
    const { status, stderr } = runCli(["compact", session, "--previous", checkpoint, "--output", checkpoint]);
    expect(status).toBe(2);
    expect(stderr).toContain("is the input");
    expect(readFileSync(checkpoint).equals(before)).toBe(true);
  });
});

describeWithFixtures("--output= with nothing after it", () => {
  it("is a clear usage error and leaves no .partial file", () => {
    const work = mkdtempSync(join(tmpdir(), "si-empty-output-"));
    const result = spawnSync(process.execPath, [LAUNCHER, "compact", session, "--output="], { cwd: work, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("error: --output needs a value (it was empty)");
    expect(readdirSync(work)).toEqual([]);
  });
});
