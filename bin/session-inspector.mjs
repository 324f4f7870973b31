#!/usr/bin/env node
/** `npm run cli`: the CLI (core/cli.ts) from its cached bundle; see bundle.mjs. */
import { pathToFileURL } from "node:url";
import { bundledCli } from "./bundle.mjs";

// `npm run` starts scripts in the package's root; paths on the command line
// were typed relative to where the user ran it, which npm passes as INIT_CWD.
if (process.env.npm_lifecycle_event === "cli" && process.env.INIT_CWD) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch {
    // Gone or unreadable: paths then resolve from the package root, as before.
  }
}

let bundle;
try {
  bundle = await bundledCli();
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
await import(pathToFileURL(bundle).href);
