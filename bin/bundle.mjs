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
import { chmodSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const ENTRY = join(ROOT, "core/cli.ts");
/** Everything the CLI can import: core/ has no runtime dependencies. */
const SOURCES = join(ROOT, "core");
/** @type {import("esbuild").BuildOptions} */
const BUILD_OPTIONS = { bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "silent" };
/**
 * Left out of the bundle and imported from node_modules where it is used:
 * the o200k tokenizer is 4.2 MB of the 4.6 MB bundle, which every start of
 * the CLI (and of each library worker thread) compiled though most commands
 * never count a token (`audit <folder>` over a cached folder spent 80 of its
 * ~500 ms compiling it, measured). core/tokens.ts imports it lazily.
 * node-llama-cpp (the local reader, core/cli/local-model.ts) loads native
 * binaries relative to its own files, so it cannot be bundled at all; nor
 * can sql.js (OpenCode's database), which finds its WASM beside its script.
 */
const EXTERNAL_PACKAGES = /^(gpt-tokenizer|node-llama-cpp|sql\.js)(\/|$)/;

/**
 * Where the bundle imports a left-out package from: an absolute file URL,
 * because the bundle lives in a cache folder that may be anywhere.
 * @param {string} specifier
 */
function externalUrl(specifier) {
  return import.meta.resolve(specifier);
}

/** The esbuild plugin that leaves EXTERNAL_PACKAGES out (plugins need esbuild's async build). */
const externalPackages = {
  name: "session-inspector-external-packages",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: EXTERNAL_PACKAGES }, (args) => ({ path: externalUrl(args.path), external: true }));
  },
};

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
  // Where the left-out tokenizer is imported from is part of the bundle's bytes: a moved checkout is a new bundle.
  hash.update(`${bundlerVersion}\0${JSON.stringify(BUILD_OPTIONS)}\0${EXTERNAL_PACKAGES.source}\0${safeExternalUrl("gpt-tokenizer")}\0`);
  for (const file of sourceFiles(dir)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(dir, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 32);
}

/** @param {string} specifier */
function safeExternalUrl(specifier) {
  try {
    return externalUrl(specifier);
  } catch {
    return "missing";
  }
}

function esbuildVersion() {
  try {
    return createRequire(import.meta.url)("esbuild/package.json").version;
  } catch {
    return "missing";
  }
}

/**
 * Whether the cached bundle is the one this launcher built: its bytes hash to
 * the digest written beside it at build time, and both files are ours and
 * writable by no one else. Only existing used to be checked, so a truncated
 * bundle failed with a stack trace on every run until the cache was cleared,
 * and a file planted under the predictable name was executed.
 * @param {string} bundle
 * @param {string} digestFile
 */
export function trustedBundle(bundle, digestFile) {
  try {
    for (const file of [bundle, digestFile]) {
      const stat = statSync(file);
      if (!stat.isFile() || (stat.mode & 0o022) !== 0) return false;
      if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return false;
    }
    const recorded = readFileSync(digestFile, "utf8").trim();
    return /^[0-9a-f]{64}$/.test(recorded) && createHash("sha256").update(readFileSync(bundle)).digest("hex") === recorded;
  } catch {
    return false;
  }
}

/** The path of an up-to-date bundle of the CLI, built now if there is none or the cached one is damaged. */
export async function bundledCli() {
  const dir = cacheDir();
  const key = sourceKey();
  const bundle = join(dir, `cli-${key}.mjs`);
  const digestFile = `${bundle}.sha256`;
  if (trustedBundle(bundle, digestFile)) return bundle;
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
  const partialDigest = `${digestFile}.${process.pid}.partial`;
  try {
    await esbuild.build({ ...BUILD_OPTIONS, entryPoints: [ENTRY], outfile: partial, plugins: [externalPackages] });
    writeFileSync(partialDigest, createHash("sha256").update(readFileSync(partial)).digest("hex") + "\n");
    // Writable by no one else, whatever the umask: trustedBundle refuses anything else.
    chmodSync(partial, 0o644);
    chmodSync(partialDigest, 0o644);
  } catch (error) {
    rmSync(partial, { force: true });
    rmSync(partialDigest, { force: true });
    throw new Error(`cannot build the CLI from ${relative(process.cwd(), ENTRY)}: ${messageOf(error)}`);
  }
  // A planted or damaged file in the way is replaced (a rename replaces, it never follows a link).
  renameSync(partial, bundle);
  renameSync(partialDigest, digestFile);
  // Bundles of older sources are of no further use.
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith("cli-") && (name.endsWith(".mjs") || name.endsWith(".mjs.sha256")) && path !== bundle && path !== digestFile) rmSync(path, { force: true });
  }
  return bundle;
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
