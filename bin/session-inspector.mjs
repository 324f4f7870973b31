#!/usr/bin/env node
/** `npm run cli`: the CLI (core/cli.ts) from its cached bundle; see bundle.mjs. */
import { pathToFileURL } from "node:url";
import { bundledCli } from "./bundle.mjs";

let bundle;
try {
  bundle = await bundledCli();
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
await import(pathToFileURL(bundle).href);
