/** Paths to the shared real-session fixtures (read in place, never copied into the project). */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/fixtures");

export function fixturePath(relative: string): string {
  return join(FIXTURES, relative);
}

export function readFixture(relative: string): Uint8Array {
  return readFileSync(fixturePath(relative));
}

/** Every session file under the fixtures folder, as `dir/name`. */
export function allFixtures(): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(FIXTURES, dir.name))) if (/\.(jsonl|json)$/.test(file)) out.push(`${dir.name}/${file}`);
  }
  return out.sort();
}
