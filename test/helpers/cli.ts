/** Runs the real CLI (core/cli.ts through tsx, as `npm run cli` does). */
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");

export function runCli(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(TSX, [join(ROOT, "core/cli.ts"), ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
