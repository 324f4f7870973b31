#!/usr/bin/env node
/**
 * The command line on the same core as the app. Every command prints JSON on
 * stdout; a problem exits 2 with one line on stderr (`error: <file>:<line>:
 * <reason>`), never a stack trace; `verify` exits 1 when a hash does not hold.
 */
import { UsageError, parseArgs } from "./cli/flags.ts";
import { FileError, lastRead } from "./cli/input.ts";
import { deepestMessage, isStackOverflow } from "./depth.ts";
import { useNodeHasher } from "./cli/node-hash.ts";
import { runCheckrideCommand, runCompact, runInspect, runReport, runRoundsCommand, runScan, runVerify } from "./cli/commands.ts";
import { runAudit } from "./cli/audit.ts";
import { isSqlitePath, prepareSqlite } from "./cli/sqlite-node.ts";
import { isLibraryWorker, serveLibraryWorker } from "./cli/library-pool.ts";

const USAGE = `usage:
  npm run cli -- inspect <file> --follow [--json] [--interval MS]   (a line per turn and per compaction as the agent writes the file)
  npm run cli -- inspect <file|folder|opencode.db> [--session ID] [--leaf ID] [--format pi|claude|codex|openai|anthropic|gemini|cline|opencode|copilot] [--strict]
  npm run cli -- compact <file> [--leaf ID] [--strategy NAME] [--max-prose-characters N]
                                [--previous CHECKPOINT (transparent only)] [--output FILE] [--format F] [--strict] [--redact [--keep FINDING,…]]
                                [--token-counts]  (add stats.activeTokens/originalTokens, exact o200k counts: several times the compaction's time)
  npm run cli -- verify <checkpoint>
  npm run cli -- checkride <file> [--strategy NAME|all] [--reader literal|endpoint] [--endpoint URL --model M [--timeout S]]
                                  [--reader local --model PATH.gguf [--context-size N]] [--memory FILE] [--leaf ID] [--json]
                 (local: the model file runs here through llama.cpp, one question at a time; answers are correct, don't know or confidently wrong)
                 (the endpoint's API key, if it needs one, comes from SESSION_INSPECTOR_API_KEY)
  npm run cli -- report <file> [--strategy NAME[,NAME…]|all] [--format html|md] [--output FILE] [--keep FINDING,…|--no-redact] [--memory FILE]
                                [--reader literal|endpoint|local] [--endpoint URL --model M | --model PATH.gguf]
  npm run cli -- audit <file> [--json] [--leaf ID] [--reader literal|endpoint|local] [--endpoint URL --model M | --model PATH.gguf] [--memory FILE]
  npm run cli -- audit <file> --follow [--json] [--interval MS]     (each new compaction's audit row as it is recorded; Ctrl-C stops)
  npm run cli -- audit <folder> [--json|--csv|--html [--with-facts] [--output FILE]] [--jobs N] [--no-cache]
                 (every session below the folder, worst first; --json: one JSON object per line)
                 (every compaction the file records: before/after, facts kept, what was dropped)
  npm run cli -- scan <file>              (possible secrets; report and compact --redact mask them)
  npm run cli -- rounds <file> [--rounds N] [--strategy NAME[,NAME…]|all] [--plant TEXT [--plant-at I] [--distractor TEXT]] [--leaf ID]`;

async function main(argv: string[]): Promise<number> {
  useNodeHasher();
  const args = parseArgs(argv);
  // `compact --help` asks for the usage, not for a session file.
  if (args.flags.has("help") || args.positional.includes("-h")) args.command = "help";
  // A database (OpenCode's opencode.db) is read with SQLite in WebAssembly, made ready here, once.
  if (args.positional[0] !== undefined && isSqlitePath(args.positional[0])) await prepareSqlite();
  switch (args.command) {
    case "inspect":
      return runInspect(args);
    case "compact":
      return runCompact(args);
    case "verify":
      return runVerify(args);
    case "checkride":
      return runCheckrideCommand(args);
    case "rounds":
      return runRoundsCommand(args);
    case "report":
      return runReport(args);
    case "scan":
      return runScan(args);
    case "audit":
      return runAudit(args);
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE + "\n");
      return 0;
    default:
      throw new UsageError(`unknown command "${args.command}"`);
  }
}

function flat(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}

/**
 * A stack overflow names the file, and the line of its most deeply nested message (JSON.stringify recurses);
 * a string past V8's limit names the file and the limit instead of "Cannot create a string longer than…".
 */
function nameOverflow(error: unknown): unknown {
  if (error instanceof RangeError && /string longer than|Invalid string length/i.test(error.message)) {
    const file = lastRead?.file ?? process.argv[3] ?? "input";
    return new FileError(file, 0, "a string made from this file would be past the JavaScript engine's limit (about 512 MB)");
  }
  if (!isStackOverflow(error) || !lastRead) return error;
  const { file, session } = lastRead;
  const deepest = deepestMessage(session.entries.flatMap((entry) => entry.messages));
  if (!deepest) return new FileError(file, 0, "a value is nested too deeply to process");
  return new FileError(file, deepest.message.line ?? 0, `message ${deepest.message.id} is nested ${deepest.depth} levels deep, more than this tool can process`);
}

// The same bundle started as a library worker thread (core/cli/library-pool.ts) serves index jobs instead.
if (isLibraryWorker()) serveLibraryWorker();
else runMain();

function runMain(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      error = nameOverflow(error);
      // One line, always: a reason may quote the input (V8's JSON errors quote the text around the fault).
      if (error instanceof FileError) process.stderr.write(`error: ${error.file}:${error.line}: ${flat(error.reason)}\n`);
      else if (error instanceof UsageError) process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      else process.stderr.write(`error: ${flat(error instanceof Error ? error.message : String(error))}\n`);
      process.exitCode = 2;
    },
  );
}
