/**
 * The real-session fixtures (other people's text, never copied into the
 * project): read in place from $SESSION_FIXTURES or ../shared/fixtures/.
 * Where they are absent, the suites that need them are reported as skipped
 * with the command that fetches them (`npm run fixtures`).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const FIXTURES = process.env.SESSION_FIXTURES ? resolve(process.env.SESSION_FIXTURES) : resolve(ROOT, "../shared/fixtures");
/** The blind set's sessions (test/blind.provenance.json): $SESSION_BLIND_FIXTURES, or ../blind-fixtures beside the checkout. */
export const BLIND_FIXTURES = process.env.SESSION_BLIND_FIXTURES ? resolve(process.env.SESSION_BLIND_FIXTURES) : resolve(ROOT, "../blind-fixtures");

interface ProvenanceEntry {
  file: string;
  sha256: string;
  /** Found after the shared set: tested where present, never required by the suites that need every fixture. */
  optional?: boolean;
}

const PROVENANCE = (JSON.parse(readFileSync(join(ROOT, "test/fixtures.provenance.json"), "utf8")) as { files: ProvenanceEntry[] }).files;

/** Every fixture file the project needs (test/fixtures.provenance.json, the optional ones left out). */
export const KNOWN_FIXTURES: readonly string[] = PROVENANCE.filter((f) => !f.optional).map((f) => f.file);

/** The optional fixtures that are there to read (`npm run fixtures` fetches them with the others). */
export const PRESENT_OPTIONAL_FIXTURES: readonly string[] = PROVENANCE.filter((f) => f.optional && existsSync(join(FIXTURES, f.file))).map((f) => f.file);

/** True when every known fixture is there to read. */
export const fixturesPresent = KNOWN_FIXTURES.every((file) => existsSync(join(FIXTURES, file)));

export const FETCH_FIXTURES_HINT = `the real-session fixtures are not in ${FIXTURES}: run \`npm run fixtures\` (fetches them and checks each SHA-256) or set SESSION_FIXTURES to a folder that has them`;

if (!fixturesPresent) console.warn(`skipping the real-session tests: ${FETCH_FIXTURES_HINT}`);

/**
 * A suite over real sessions. Where they are absent it is skipped, and its
 * body (which reads them while the tests are collected) is not run: one
 * skipped entry stands for it, named with the command that fetches them.
 */
export function describeWithFixtures(name: string, body: () => void): void {
  describe.skipIf(!fixturesPresent)(name, fixturesPresent ? body : () => it(`needs the real-session fixtures: run \`npm run fixtures\``, () => {}));
}

export function fixturePath(relative: string): string {
  return join(FIXTURES, relative);
}

export function readFixture(relative: string): Uint8Array {
  return readFileSync(fixturePath(relative));
}

/** The optional fixtures (found after the shared set): each has tests of its own (test/core/formats-real-found.test.ts). */
const OPTIONAL_FIXTURES = new Set(PROVENANCE.filter((f) => f.optional).map((f) => f.file));

/**
 * Every session file of the shared set under the fixtures folder, as `dir/name` (none where the folder is absent).
 * Optional fixtures in the same folder are left out: the expectations over "every fixture" are the shared set's.
 */
export function allFixtures(): string[] {
  if (!existsSync(FIXTURES)) return [];
  const out: string[] = [];
  for (const dir of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(FIXTURES, dir.name))) if (/\.(jsonl|json)$/.test(file) && !OPTIONAL_FIXTURES.has(`${dir.name}/${file}`)) out.push(`${dir.name}/${file}`);
  }
  return out.sort();
}

/** One test over real sessions in a file whose other tests need none: skipped, with the reason in its name's log, where they are absent. */
export const itWithFixtures = it.skipIf(!fixturesPresent);

/** A fixture as the app's "bytes" load source (what the component and store tests load through the in-process engine). */
export function fixtureSource(relative: string): { kind: "bytes"; bytes: ArrayBuffer; name: string } {
  const data = readFixture(relative);
  return { kind: "bytes", bytes: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer, name: relative.split("/").pop()! };
}
