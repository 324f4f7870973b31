/**
 * Fetches exactly the real-session fixtures listed in
 * test/fixtures.provenance.json into $SESSION_FIXTURES (default
 * ../shared/fixtures/) and checks each file's SHA-256; a file already there
 * with the right hash is left alone. `--check` only verifies. Exits 1 when a
 * file is missing or differs, naming each.
 *
 *   npm run fixtures [-- --check] [-- --blind]
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

interface Entry {
  file: string;
  bytes: number;
  sha256: string;
  /** Found after the shared set: fetched like the others, but one that cannot be had is no failure. */
  optional?: boolean;
  repo?: string;
  commit?: string | null;
  path?: string | null;
  source?: string;
}

const root = resolve(import.meta.dirname, "..");
// `--blind`: the blind set's sessions (test/blind.provenance.json) instead of the fixtures.
const blind = process.argv.includes("--blind");
const target = blind
  ? process.env.SESSION_BLIND_FIXTURES
    ? resolve(process.env.SESSION_BLIND_FIXTURES)
    : resolve(root, "../blind-fixtures")
  : process.env.SESSION_FIXTURES
    ? resolve(process.env.SESSION_FIXTURES)
    : resolve(root, "../shared/fixtures");
const checkOnly = process.argv.includes("--check");
// The blind sets, every round of them (see test/helpers/labelled-set.ts, BLIND_SETS).
const provenance = blind
  ? [
      "test/blind.provenance.json",
      "test/blind-2.provenance.json",
      "test/blind-3.provenance.json",
      "test/blind-4.provenance.json",
      "test/blind-5.provenance.json",
      "test/blind-6.provenance.json",
      "test/blind-7.provenance.json",
      "test/blind-8.provenance.json",
      "test/blind-9.provenance.json",
      "test/blind-10.provenance.json",
      "test/blind-11.provenance.json",
      "test/blind-12.provenance.json",
      "test/blind-13.provenance.json",
      "test/blind-14.provenance.json",
      "test/blind-15.provenance.json",
      "test/blind-16.provenance.json",
      "test/blind-17.provenance.json",
      "test/blind-18.provenance.json",
      "test/blind-19.provenance.json",
      "test/blind-20.provenance.json",
      "test/blind-21.provenance.json",
    ]
  : ["test/fixtures.provenance.json"];
const files = provenance.filter((file) => existsSync(join(root, file))).flatMap((file) => (JSON.parse(readFileSync(join(root, file), "utf8")) as { files: Entry[] }).files);

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Where the file can be fetched from, in order: the recorded commit, then the default branch. */
function urls(entry: Entry): string[] {
  if (!entry.repo || !entry.path) return [];
  const path = entry.path.split("/").map(encodeURIComponent).join("/");
  // A commit may be recorded with the branch it was found on ("<40 hex> (ref main)"): the hash is the ref.
  const refs = [entry.commit?.match(/^[0-9a-f]{40}/)?.[0], "HEAD"].filter((ref): ref is string => !!ref);
  return refs.map((ref) => `https://raw.githubusercontent.com/${entry.repo}/${ref}/${path}`);
}

async function fetchVerified(entry: Entry): Promise<{ bytes?: Uint8Array; why: string }> {
  const tried: string[] = [];
  for (const url of urls(entry)) {
    try {
      const response = await fetch(url);
      if (!response.ok) {
        tried.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      const found = sha256(bytes);
      if (found === entry.sha256) return { bytes, why: url };
      tried.push(`${url}: sha256 ${found}, not ${entry.sha256}`);
    } catch (error) {
      tried.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (tried.length === 0) return { why: entry.source ?? "no repository path is recorded for it" };
  return { why: tried.join("; ") };
}

let problems = 0;
for (const entry of files) {
  const local = join(target, entry.file);
  if (existsSync(local)) {
    const found = sha256(readFileSync(local));
    if (found === entry.sha256) {
      console.log(`ok       ${entry.file}`);
      continue;
    }
    console.log(`DIFFERS  ${entry.file}: sha256 ${found}, expected ${entry.sha256}`);
    problems++;
    continue;
  }
  if (checkOnly) {
    console.log(`MISSING  ${entry.file}${entry.optional ? " (optional)" : ""}`);
    if (!entry.optional) problems++;
    continue;
  }
  const { bytes, why } = await fetchVerified(entry);
  if (!bytes) {
    console.log(`MISSING  ${entry.file}${entry.optional ? " (optional: its tests are skipped)" : ""}: ${why}`);
    if (!entry.optional) problems++;
    continue;
  }
  mkdirSync(dirname(local), { recursive: true });
  // Written beside its name and renamed into place: never a half-written fixture.
  writeFileSync(`${local}.partial`, bytes);
  renameSync(`${local}.partial`, local);
  console.log(`fetched  ${entry.file} from ${why}`);
}
console.log(problems === 0 ? `all ${files.length} fixtures present in ${target}, hashes verified` : `${problems} of ${files.length} fixtures missing or different in ${target}`);
process.exit(problems === 0 ? 0 : 1);
