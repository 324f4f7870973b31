/**
 * The real sessions the scripts' tables are made from, read in place:
 * $SESSION_FIXTURES, or ../shared/fixtures/ (`npm run fixtures` fetches them).
 * Each agent's folder in name order, its .json and .jsonl files in name order.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

export const FIXTURE_ROOT = process.env.SESSION_FIXTURES ? resolve(process.env.SESSION_FIXTURES) : resolve(import.meta.dirname, "../../shared/fixtures");

export interface FixtureFile {
  /** The agent's folder ("claude", "pi", "composed", …). */
  dir: string;
  name: string;
  path: string;
}

export function fixtureFiles(): FixtureFile[] {
  const files: FixtureFile[] = [];
  const dirs = readdirSync(FIXTURE_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const dir of dirs) {
    const names = readdirSync(join(FIXTURE_ROOT, dir))
      .filter((f) => /\.jsonl?$/.test(f))
      .sort();
    for (const name of names) files.push({ dir, name, path: join(FIXTURE_ROOT, dir, name) });
  }
  return files;
}
