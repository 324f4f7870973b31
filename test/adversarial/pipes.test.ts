/**
 * One read of any input: a message array or `--strict` used to read the file
 * twice, so from a pipe the second read found "the file is empty" and from a
 * FIFO the second open waited for a writer that never came.
 */
import { spawn, spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { LAUNCHER, ROOT } from "../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-pipes-"));
const ARRAY = fixturePath("composed/openai-chat.json");
const PI = fixturePath("composed/pi-v3-tree.jsonl");

function throughStdin(args: string[], file: string) {
  const result = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, input: readFileSync(file), encoding: "utf8", timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI reading a FIFO another process writes into; both killed (by their own pid) if they hang. */
function throughFifo(args: (fifo: string) => string[], file: string, name: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const fifo = join(temp, name);
  execFileSync("mkfifo", [fifo]);
  return new Promise((resolve) => {
    const cli = spawn(process.execPath, [LAUNCHER, ...args(fifo)], { cwd: ROOT });
    const writer = spawn(process.execPath, ["-e", `require("node:fs").writeFileSync(${JSON.stringify(fifo)}, require("node:fs").readFileSync(${JSON.stringify(file)}))`]);
    let stdout = "";
    let stderr = "";
    cli.stdout.on("data", (d) => (stdout += d));
    cli.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      cli.kill("SIGKILL");
      writer.kill("SIGKILL");
    }, 20_000);
    cli.on("close", (status) => {
      clearTimeout(timer);
      writer.kill("SIGKILL");
      resolve({ status, stdout, stderr: stderr || (status === null ? "timed out" : "") });
    });
  });
}

describeWithFixtures("a pipe on stdin (/dev/stdin)", () => {
  it("a message array", () => {
    const { status, stdout, stderr } = throughStdin(["inspect", "/dev/stdin"], ARRAY);
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout).format).toBe("openai");
  });

  it("JSON Lines with --strict, compacted and hashed as the file", () => {
    const { status, stdout, stderr } = throughStdin(["compact", "/dev/stdin", "--strict"], PI);
    expect(status, stderr).toBe(0);
    const checkpoint = JSON.parse(stdout);
    expect(checkpoint.source.bytes).toBe(readFileSync(PI).length);
    expect(checkpoint.source.format).toBe("pi");
  });
});

describeWithFixtures("a FIFO", () => {
  it("a message array is read without hanging", async () => {
    const { status, stdout, stderr } = await throughFifo((fifo) => ["inspect", fifo], ARRAY, "array.fifo");
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout).format).toBe("openai");
  }, 30_000);

  it("--strict is read without hanging", async () => {
    const { status, stdout, stderr } = await throughFifo((fifo) => ["scan", fifo, "--strict"], PI, "strict.fifo");
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toHaveProperty("findings");
  }, 30_000);
});
