/**
 * The command line's words: parsing them, and reading each flag into what the
 * commands need, checked the same way for every command that takes it (one
 * message for a bad --strategy, --reader, --endpoint or whole number,
 * wherever it is given). The files they name are read in input.ts.
 */
import type { EndpointConfig } from "../checkride/readers.ts";
import { STRATEGIES, findStrategy } from "../strategies/index.ts";

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set([
  "leaf",
  "session",
  "format",
  "strategy",
  "max-prose-characters",
  "previous",
  "output",
  "reader",
  "endpoint",
  "model",
  "memory",
  "timeout",
  "rounds",
  "plant",
  "plant-at",
  "distractor",
  "keep",
  "jobs",
  "context-size",
  "interval",
]);
const BOOLEAN_FLAGS = new Set(["strict", "json", "help", "redact", "no-redact", "csv", "html", "with-facts", "no-cache", "no-token-counts", "token-counts", "follow"]);

export function parseArgs(argv: string[]): ParsedArgs {
  const [command = "help", ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (VALUE_FLAGS.has(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      // `--output=` would write a file with no name (and leave a `.partial` beside it).
      if (value === "") throw new UsageError(`--${name} needs a value (it was empty)`);
      flags.set(name, value);
    } else if (BOOLEAN_FLAGS.has(name)) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { command, positional, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === "string" ? value : undefined;
}

/** A flag that takes a whole number of `unit` (at least `min`), e.g. `--jobs takes a whole number of threads (1 or more)`. */
export function wholeNumberFlag(args: ParsedArgs, name: string, unit: string, min = 0): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} takes a whole number of ${unit}${min > 0 ? ` (${min} or more)` : ""}`);
  return Number(value);
}

/** --endpoint URL --model M: the model that writes summaries (pi-default, handoff) and, with --reader endpoint, answers the quiz. */
export function endpointFlags(args: ParsedArgs): EndpointConfig | undefined {
  const url = stringFlag(args, "endpoint");
  const model = stringFlag(args, "model");
  if (!url && !model) return undefined;
  if (!url || !model) throw new UsageError("--endpoint and --model go together");
  const timeout = stringFlag(args, "timeout");
  return { url, model, apiKey: process.env.SESSION_INSPECTOR_API_KEY, timeoutMs: timeout ? Number(timeout) * 1000 : undefined };
}

export interface ReaderFlags {
  reader: "literal" | "endpoint" | "local";
  endpoint: EndpointConfig | undefined;
  /** --reader local: the GGUF file (--model PATH) and the window to run it with (--context-size N). */
  local?: { modelPath: string; contextSize?: number };
}

/** --reader literal|endpoint|local, with the endpoint the second one needs and the model file the third one does. */
export function readerFlags(args: ParsedArgs): ReaderFlags {
  const reader = stringFlag(args, "reader") ?? "literal";
  if (reader !== "literal" && reader !== "endpoint" && reader !== "local") throw new UsageError(`unknown reader "${reader}" (literal, endpoint or local)`);
  if (reader === "local") {
    // With the local reader --model is a file, not an endpoint's model name.
    const modelPath = stringFlag(args, "model");
    if (!modelPath) throw new UsageError("--reader local needs --model PATH.gguf (a model file on this machine)");
    if (stringFlag(args, "endpoint")) throw new UsageError("--reader local runs the model file itself: leave out --endpoint");
    const contextSize = wholeNumberFlag(args, "context-size", "tokens", 1);
    return { reader, endpoint: undefined, local: { modelPath, ...(contextSize !== undefined ? { contextSize } : {}) } };
  }
  const endpoint = endpointFlags(args);
  if (reader === "endpoint" && !endpoint) throw new UsageError("--reader endpoint needs --endpoint URL and --model NAME");
  return { reader, endpoint };
}

/** --leaf ID, which must name an entry of the session. */
export function leafFlag(args: ParsedArgs, session: { byId: Map<string, unknown> }): string | null {
  const leaf = stringFlag(args, "leaf") ?? null;
  if (leaf !== null && !session.byId.has(leaf)) throw new UsageError(`no entry with id "${leaf}" (run inspect to list "leaves")`);
  return leaf;
}

function unknownStrategy(name: string, withAll: boolean): UsageError {
  return new UsageError(`unknown strategy "${name}" (have: ${STRATEGIES.map((s) => s.name).join(", ")}${withAll ? ", all" : ""})`);
}

/** --strategy NAME: one strategy. */
export function strategyFlag(args: ParsedArgs, fallback: string): string {
  const name = stringFlag(args, "strategy") ?? fallback;
  if (!findStrategy(name)) throw unknownStrategy(name, false);
  return name;
}

/** --strategy NAME[,NAME…]|all: several strategies, `all` for every one but those in `allBut`. */
export function strategyList(args: ParsedArgs, fallback: string, allBut: readonly string[] = []): string[] {
  const flag = stringFlag(args, "strategy") ?? fallback;
  const names =
    flag === "all"
      ? STRATEGIES.map((s) => s.name).filter((n) => !allBut.includes(n))
      : flag
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean);
  for (const name of names) if (!findStrategy(name)) throw unknownStrategy(name, true);
  return names;
}
