#!/usr/bin/env node
/** `npm run cli`: the CLI (core/cli.ts) from its cached bundle; see bundle.mjs. */
import { pathToFileURL } from "node:url";
import { bundledCli } from "./bundle.mjs";
import { currentHeapFacts, heapForInputs, runWithHeap } from "./heap.mjs";

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
// Inputs too large for this heap: the CLI runs in a child Node with room for them (heap.mjs); the child
// runs the bundle itself, not this launcher, so it never starts another.
const args = process.argv.slice(2);
const heapMb = heapForInputs(currentHeapFacts(args));
if (heapMb !== null) process.exit(await runWithHeap(bundle, args, heapMb));
else await import(pathToFileURL(bundle).href);
