/**
 * The CLI's launcher: it runs core/cli.ts from a bundle cached by the
 * sources' content, so it must rebuild whenever a source changes and must
 * behave exactly as the sources run through tsx do.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sourceKey, trustedBundle } from "../../bin/bundle.mjs";
import { LAUNCHER, ROOT, runCli, runCliFromSources } from "../helpers/cli.ts";
import { fixturePath, fixturesPresent } from "../helpers/fixtures.ts";

function runCliAsync(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

const scratch = mkdtempSync(join(tmpdir(), "si-launcher-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("sourceKey", () => {
  const tree = join(scratch, "sources");
  mkdirSync(join(tree, "formats"), { recursive: true });
  writeFileSync(join(tree, "a.ts"), "export const a = 1;\n");
  writeFileSync(join(tree, "formats/b.ts"), "export const b = 2;\n");
  writeFileSync(join(tree, "notes.md"), "not a source\n");

  it("is stable for the same sources and changes with any source's bytes, name or number", () => {
    const key = sourceKey(tree, "1.0.0");
    expect(sourceKey(tree, "1.0.0")).toBe(key);
    writeFileSync(join(tree, "formats/b.ts"), "export const b = 3;\n");
    const edited = sourceKey(tree, "1.0.0");
    expect(edited).not.toBe(key);
    writeFileSync(join(tree, "formats/c.ts"), "");
    const added = sourceKey(tree, "1.0.0");
    expect(added).not.toBe(edited);
    rmSync(join(tree, "formats/c.ts"));
    expect(sourceKey(tree, "1.0.0")).toBe(edited);
    // Content moved between files is a different program.
    writeFileSync(join(tree, "a.ts"), "");
    writeFileSync(join(tree, "formats/b.ts"), "export const a = 1;\nexport const b = 3;\n");
    expect(sourceKey(tree, "1.0.0")).not.toBe(edited);
  });

  it("ignores files that are not TypeScript sources, and includes the bundler's version", () => {
    const key = sourceKey(tree, "1.0.0");
    writeFileSync(join(tree, "notes.md"), "edited\n");
    expect(sourceKey(tree, "1.0.0")).toBe(key);
    expect(sourceKey(tree, "1.0.1")).not.toBe(key);
  });
});

describe("the launcher", () => {
  const cache = join(scratch, "cache");
  const env = { ...process.env, SESSION_INSPECTOR_CACHE_DIR: cache };

  it("builds one bundle on first use, reuses it after, and removes bundles of older sources", () => {
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "cli-0123456789abcdef.mjs"), "throw new Error('a stale bundle ran')\n");
    const first = runCli(["--help"], env);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^usage:/);
    const bundles = readdirSync(cache);
    expect(bundles).toEqual([`cli-${sourceKey()}.mjs`, `cli-${sourceKey()}.mjs.sha256`]);
    const built = statSync(join(cache, bundles[0]!)).mtimeMs;
    expect(runCli(["--help"], env).stdout).toBe(first.stdout);
    expect(statSync(join(cache, bundles[0]!)).mtimeMs).toBe(built);
  });

  it("lets CLIs started at the same moment share one build", async () => {
    const fresh = join(scratch, "concurrent");
    const runs = Array.from({ length: 3 }, () => runCliAsync(["--help"], { ...process.env, SESSION_INSPECTOR_CACHE_DIR: fresh }));
    for (const result of await Promise.all(runs)) {
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    }
    // Each built beside the final name and renamed into place: one whole bundle, no leftovers.
    expect(readdirSync(fresh)).toEqual([`cli-${sourceKey()}.mjs`, `cli-${sourceKey()}.mjs.sha256`]);
  });

  it.skipIf(!fixturesPresent)(
    "gives exactly what the sources give through tsx: checkpoint, warnings and errors",
    () => {
      const fixture = fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl");
      for (const args of [
        ["compact", fixture],
        ["compact", fixture, "--max-prose-characters", "2000"],
        ["inspect", fixture],
        ["compact", join(scratch, "missing.jsonl")],
        ["frobnicate"],
      ]) {
        const bundled = runCli(args, env);
        const sources = runCliFromSources(args);
        expect(bundled.status).toBe(sources.status);
        expect(bundled.stdout).toBe(sources.stdout);
        expect(bundled.stderr).toBe(sources.stderr);
      }
    },
    60_000,
  );

  it.skipIf(!fixturesPresent)("reads and writes paths relative to where `npm run cli` was typed, not the package root", () => {
    const elsewhere = join(scratch, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    copyFileSync(fixturePath("composed/pi-v3-tree.jsonl"), join(elsewhere, "session.jsonl"));
    const npmEnv = { ...env, npm_lifecycle_event: "cli", INIT_CWD: elsewhere };
    const result = runCli(["compact", "session.jsonl", "--output", "checkpoint.json"], npmEnv);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(join(elsewhere, "checkpoint.json"), "utf8")).source.name).toBe("session.jsonl");
    // Started any other way, the process's own directory counts (here the package root, where there is no such file).
    expect(runCli(["inspect", "session.jsonl"], { ...env, INIT_CWD: elsewhere }).stderr).toContain("session.jsonl:0: no such file");
  });

  it("says so, without a stack trace, when the bundle cannot be built", () => {
    // A cache directory that is a file cannot hold a bundle.
    const blocked = join(scratch, "not-a-directory");
    writeFileSync(blocked, "");
    const result = runCli(["--help"], { ...process.env, SESSION_INSPECTOR_CACHE_DIR: blocked });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("rebuilds a damaged (truncated) bundle instead of failing with a stack trace on every run", () => {
    const dir = join(scratch, "damaged");
    const env = { ...process.env, SESSION_INSPECTOR_CACHE_DIR: dir };
    expect(runCli(["--help"], env).status).toBe(0);
    const bundle = join(dir, `cli-${sourceKey()}.mjs`);
    const whole = readFileSync(bundle);
    writeFileSync(bundle, whole.subarray(0, Math.floor(whole.length / 2)));
    const result = runCli(["--help"], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(readFileSync(bundle).equals(whole)).toBe(true);
  });

  it("never runs a file planted under the bundle's predictable name", () => {
    const dir = join(scratch, "planted");
    mkdirSync(dir, { recursive: true });
    const env = { ...process.env, SESSION_INSPECTOR_CACHE_DIR: dir };
    const bundle = join(dir, `cli-${sourceKey()}.mjs`);
    const marker = join(scratch, "planted-ran");
    const planted = `(await import("node:fs")).writeFileSync(${JSON.stringify(marker)}, "ran");\n`;
    // Alone; then with a digest that matches it but writable by others (as in a shared directory).
    writeFileSync(bundle, planted);
    expect(runCli(["--help"], env).status).toBe(0);
    expect(() => statSync(marker)).toThrow();
    writeFileSync(bundle, planted, { mode: 0o666 });
    chmodSync(bundle, 0o666);
    writeFileSync(`${bundle}.sha256`, createHash("sha256").update(planted).digest("hex") + "\n");
    expect(trustedBundle(bundle, `${bundle}.sha256`)).toBe(false);
    expect(runCli(["--help"], env).status).toBe(0);
    expect(() => statSync(marker)).toThrow();
    expect(trustedBundle(bundle, `${bundle}.sha256`)).toBe(true);
  });
});
