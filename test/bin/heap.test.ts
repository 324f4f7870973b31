/**
 * Room for large sessions (bin/heap.mjs): when the files on the command line
 * are large for Node's heap, the CLI runs in a child Node with a heap sized
 * from the machine's memory; stdout, stderr and the exit code pass through,
 * and a heap that still runs out is one line, not V8's dump.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatePiSession } from "../../bench/generate.ts";
import { BYTES_PER_INPUT_BYTE, bytesPerInputByte, heapForInputs, inputBytes } from "../../bin/heap.mjs";
import { runCli, ROOT } from "../helpers/cli.ts";

const GB = 1024 ** 3;
const temp = mkdtempSync(join(tmpdir(), "si-heap-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("when the CLI needs a larger heap", () => {
  it("only when the inputs are large for the heap, the user chose none, and the machine has more to give", () => {
    const facts = { inputBytes: 0.1 * GB, heapLimitBytes: 4 * GB, memoryBytes: 24 * GB, userChoseHeap: false };
    expect(heapForInputs(facts)).toBeNull();
    // Just past the margin: 3/4 of the machine's memory, in MB.
    expect(heapForInputs({ ...facts, inputBytes: (4 * GB) / BYTES_PER_INPUT_BYTE + 1 })).toBe(18 * 1024);
    expect(heapForInputs({ ...facts, inputBytes: 1 * GB, userChoseHeap: true })).toBeNull();
    expect(heapForInputs({ ...facts, inputBytes: 1 * GB, memoryBytes: 4 * GB })).toBeNull();
    // verify keeps ids and hashes, not payloads: a 1 GB checkpoint stays in this process's 4 GB heap.
    expect(bytesPerInputByte(["verify", "cp.json"])).toBe(1);
    expect(bytesPerInputByte(["report", "s.jsonl"])).toBe(BYTES_PER_INPUT_BYTE);
    expect(heapForInputs({ ...facts, inputBytes: 1 * GB, perInputByte: bytesPerInputByte(["verify", "cp.json"]) })).toBeNull();
  });

  it("counts the regular files named on the command line, flag values included, and nothing else", () => {
    const a = join(temp, "a.jsonl");
    const b = join(temp, "b.json");
    writeFileSync(a, "x".repeat(1000));
    writeFileSync(b, "y".repeat(200));
    expect(inputBytes(["compact", a, `--previous=${b}`, "--strategy", "transparent", temp, "--output", join(temp, "missing.json")])).toBe(1200);
  });
});

/** Runs the launcher's child path directly, with a chosen heap, as the launcher would for a large input. */
function runInChild(args: string[], heapMb: number) {
  const script = `import { bundledCli } from "./bin/bundle.mjs"; import { runWithHeap } from "./bin/heap.mjs";
    process.exit(await runWithHeap(await bundledCli(), ${JSON.stringify(args)}, ${heapMb}));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the CLI in a child with its own heap", () => {
  const session = join(temp, "generated.jsonl");
  writeFileSync(session, generatePiSession(4e6));

  it("gives what the in-process CLI gives: stdout, stderr and exit code", () => {
    const inProcess = runCli(["inspect", session, "--json"]);
    const child = runInChild(["inspect", session, "--json"], 512);
    expect(child).toEqual({ status: inProcess.status, stdout: inProcess.stdout, stderr: inProcess.stderr });
    const missing = runInChild(["inspect", join(temp, "nope.jsonl")], 512);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(runCli(["inspect", join(temp, "nope.jsonl")]).stderr);
  }, 60_000);

  it("a heap that runs out is one line with the heap's size and exit code 2, not V8's dump", () => {
    // `inspect` holds the whole session (a streaming `compact` without token counts fits in 24 MB).
    const result = runInChild(["inspect", session], 24);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^error: ran out of memory with a 24 MB heap/)]);
    expect(result.stderr).not.toContain("FATAL ERROR");
  }, 60_000);
});
