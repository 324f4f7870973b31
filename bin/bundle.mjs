/**
 * The CLI runs from one bundle of core/ rather than through tsx: tsx
 * transpiles every module on each start, which took ~0.3 s of every command
 * (`--help` 0.33 s through tsx, 0.07 s from the bundle, measured here).
 *
 * The bundle is built on first use with esbuild (~0.1 s) and cached under a
 * key made from the sources' content, so an edited, pulled or checked-out
 * source is never run stale: a changed byte anywhere in core/ is a new key
 * and a new build. Plain JavaScript because it has to run before anything
 * can transpile TypeScript.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const ENTRY = join(ROOT, "core/cli.ts");
/** Everything the CLI can import: core/ has no runtime dependencies. */
const SOURCES = join(ROOT, "core");
/** @type {import("esbuild").BuildOptions} */
const BUILD_OPTIONS = { bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "silent" };

/** Where bundles are kept: SESSION_INSPECTOR_CACHE_DIR, else node_modules/.cache (never committed). */
export function cacheDir() {
  return process.env.SESSION_INSPECTOR_CACHE_DIR || join(ROOT, "node_modules/.cache/session-inspector");
}

/**
 * Every .ts file under `dir`, as paths relative to it, in a fixed order.
 * @param {string} dir
 * @param {string} [base]
 * @returns {string[]}
 */
function sourceFiles(dir, base = dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path, base));
    else if (entry.name.endsWith(".ts")) files.push(relative(base, path));
  }
  return files.sort();
}

/**
 * SHA-256 over every source's path and bytes, the bundler's version and the
 * build options: equal keys mean an equal bundle.
 * @param {string} [dir] the sources (core/)
 * @param {string} [bundlerVersion]
 */
export function sourceKey(dir = SOURCES, bundlerVersion = esbuildVersion()) {
  const hash = createHash("sha256");
  hash.update(`${bundlerVersion}\0${JSON.stringify(BUILD_OPTIONS)}\0`);
  for (const file of sourceFiles(dir)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(dir, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 32);
}

function esbuildVersion() {
  try {
    return createRequire(import.meta.url)("esbuild/package.json").version;
  } catch {
    return "missing";
  }
}

/** The path of an up-to-date bundle of the CLI, built now if there is none. */
export async function bundledCli() {
  const dir = cacheDir();
  const key = sourceKey();
  const bundle = join(dir, `cli-${key}.mjs`);
  if (existsSync(bundle)) return bundle;
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch (error) {
    throw new Error(`cannot build the CLI: esbuild is not installed (run npm ci): ${messageOf(error)}`);
  }
  mkdirSync(dir, { recursive: true });
  // Built beside its final name and renamed into place: a CLI started at the
  // same moment sees either no bundle or a whole one, never half of one.
  const partial = `${bundle}.${process.pid}.partial`;
  try {
    esbuild.buildSync({ ...BUILD_OPTIONS, entryPoints: [ENTRY], outfile: partial });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new Error(`cannot build the CLI from ${relative(process.cwd(), ENTRY)}: ${messageOf(error)}`);
  }
  renameSync(partial, bundle);
  // Bundles of older sources are of no further use.
  for (const name of readdirSync(dir)) {
    if (name.startsWith("cli-") && name.endsWith(".mjs") && join(dir, name) !== bundle) rmSync(join(dir, name), { force: true });
  }
  return bundle;
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
