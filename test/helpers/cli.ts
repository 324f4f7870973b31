/** Runs the real CLI as `npm run cli` does: bin/session-inspector.mjs, which runs core/cli.ts from its cached bundle. */
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const LAUNCHER = join(ROOT, "bin/session-inspector.mjs");

export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The same CLI straight from its TypeScript sources through tsx, bypassing the bundle. */
export function runCliFromSources(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "core/cli.ts"), ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
