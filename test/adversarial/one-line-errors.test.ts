/** Every problem is one line naming the file (and the line when there is one), never a bare JavaScript error or stack. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-errors-"));
let counter = 0;
function file(text: string, extension = "jsonl"): string {
  const path = join(temp, `input-${counter++}.${extension}`);
  writeFileSync(path, text);
  return path;
}

function oneLine(args: string[], status: number): string {
  const result = runCli(args);
  expect(result.status, result.stderr).toBe(status);
  const lines = result.stderr
    .trimEnd()
    .split("\n")
    .filter((line) => !line.startsWith("scan:") && !line.startsWith("  "));
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |Maximum call stack|TypeError|Cannot read properties/);
  return lines[0]!;
}

describe("a message nested 10,000 levels deep", () => {
  const header = JSON.stringify({ type: "session", version: 3, id: "deep", timestamp: "2026-11-20T09:00:00.000Z", cwd: "/" });
  const user = JSON.stringify({ type: "message", id: "u1", parentId: null, timestamp: "t", message: { role: "user", content: [{ type: "text", text: "hi" }] } });
  const deep = `{"type":"message","id":"d1","parentId":"u1","timestamp":"t","message":{"role":"assistant","content":[{"type":"odd","value":${"[".repeat(10_000)}${"]".repeat(10_000)}}]}}`;
  const path = file([header, user, deep].join("\n") + "\n");

  it.each([["compact"], ["report"]])("%s names the file and the line of the message", (command) => {
    expect(oneLine([command, path, "--output", join(temp, `${command}.out`)], 2)).toBe(`error: ${path}:3: message d1 is nested 10004 levels deep, more than this tool can process`);
  });
});

describe("JSON errors", () => {
  it("without a position in V8's message: not blamed on line 1", () => {
    const path = file('[{"role":"user","content":"a"},\n{"role":"user","content":"b"},\n]\n', "json");
    expect(oneLine(["inspect", path], 2)).toMatch(new RegExp(`^error: ${path}:0: not valid JSON \\(.*\\) \\(position unknown\\)$`));
  });

  it("cut off at the end: the last line, counting blank lines before the value", () => {
    const path = file('\n\n[{"role":"user","content":"a"},\n{"role":"user","content":"b"}', "json");
    expect(oneLine(["inspect", path], 2)).toMatch(new RegExp(`^error: ${path}:4: not valid JSON`));
  });
});

describeWithFixtures("--format that the file plainly is not", () => {
  it.each([
    ["claude", "composed/pi-v3-tree.jsonl", "pi"],
    ["codex", "composed/pi-v3-tree.jsonl", "pi"],
    ["pi", "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl", "claude"],
  ])("--format %s on %s is refused, naming what it is", (format, fixture, actual) => {
    const line = oneLine(["inspect", fixturePath(fixture), "--format", format], 2);
    expect(line).toBe(`error: ${fixturePath(fixture)}:1: --format ${format}, but this is a ${actual} session (leave out --format, or give --format ${actual})`);
  });

  it("the format the file is still works as an override", () => {
    expect(runCli(["inspect", fixturePath("composed/pi-v3-tree.jsonl"), "--format", "pi"]).status).toBe(0);
  });
});

describeWithFixtures("malformed checkpoints", () => {
  const schema = '"schema":"session-inspector/checkpoint@1"';
  it.each([
    ["not JSON", `{${schema},"active":[],`, 2],
    ["JSON null", "null", 2],
    ["an array", "[]", 2],
    ["no archive", `{${schema},"active":[]}`, 2],
    ["a null entry", `{${schema},"active":[],"archive":[null]}`, 1],
    ["a message without blocks", `{${schema},"active":[{"id":"a","blocks":null}],"archive":[]}`, 1],
    ["a marker without an id, an entry without fields", `{${schema},"active":[{"id":"a","blocks":[{"type":"omitted"},null]}],"archive":[{"id":1}]}`, 1],
    [
      "no strategy, no stats",
      `{${schema},"active":[],"archive":[{"id":"a#","sha256":"x","bytes":1,"kind":"message","messageId":"a","path":"","payload":{"id":"a"}}],"stats":null,"strategy":null}`,
      1,
    ],
  ])("%s: verify says what, and --previous refuses it in one line", (_name, text, verifyStatus) => {
    const path = file(text, "json");
    const result = runCli(["verify", path]);
    expect(result.status).toBe(verifyStatus);
    expect(result.stderr).not.toMatch(/\n\s+at |TypeError|Cannot read properties/);
    for (const line of result.stderr.trimEnd().split("\n")) expect(line).toMatch(/^(error: .+:\d+: |mismatch: \S+: )\S/);
    expect(oneLine(["compact", fixturePath("composed/pi-v3-tree.jsonl"), "--previous", path], 2)).toMatch(new RegExp(`^error: ${path}:\\d+: `));
  });
});
