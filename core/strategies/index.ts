/**
 * The strategy registry: each strategy is a pure function branch → result
 * with serializable options. The app's picker and the CLI's --strategy read
 * this list, so a new strategy slots in here and nowhere else.
 */
import type { Message } from "../model.ts";
import { brief } from "./brief.ts";
import { handoff } from "./handoff.ts";
import { piDefault } from "./pi-default.ts";
import { recorded } from "./recorded.ts";
import { transparent } from "./transparent.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export interface StrategyInfo {
  name: string;
  /** Shown in the picker; says "in the style of" for re-implementations. */
  label: string;
  description: string;
  run(branch: readonly Message[], options: Record<string, unknown>, context: StrategyContext): Promise<StrategyResult>;
}

export const STRATEGIES: readonly StrategyInfo[] = [
  {
    name: "transparent",
    label: "Transparent (the paper's method)",
    description: "All user and assistant prose verbatim; tool output, thinking, images and unknown blocks moved out behind SHA-256 recovery markers.",
    run: (branch, options, context) => transparent(branch, { maxProseChars: typeof options.maxProseChars === "number" ? options.maxProseChars : undefined }, context),
  },
  {
    name: "recorded",
    label: "Recorded (the compactions in the file)",
    description: "What the real agent would send now, after the compactions recorded in the session; everything it dropped is listed in the archive.",
    run: (branch, _options, context) => recorded(branch, context),
  },
  {
    name: "pi-default",
    label: "Pi's default compaction (re-implemented; summary needs a model)",
    description:
      "Pi's own cut point (keep about 20,000 estimated tokens, never cut at a tool result) and file lists; the kept tail verbatim; the summary slot says none was written without a model endpoint.",
    run: (branch, options, context) => piDefault(branch, { keepRecentTokens: typeof options.keepRecentTokens === "number" ? options.keepRecentTokens : undefined }, context),
  },
  {
    name: "handoff",
    label: "Hand-off (in the style of mempact; summary needs a model)",
    description:
      "A summary slot, a staples block built by code from the record, the newest user messages verbatim (20k tokens), the current turn with old tool results cleared and big ones capped at 10 KB; everything removed recoverable.",
    run: (branch, options, context) =>
      handoff(branch, { capBytes: num(options.capBytes), keepResults: num(options.keepResults), userTokenBudget: num(options.userTokenBudget) }, context),
  },
  {
    name: "brief",
    label: "Brief (in the style of pi-vcc, no model)",
    description:
      "The newest user turns as they were; everything earlier as a deterministic brief (goal, files, commits, outstanding context, preferences, a truncated transcript); tool output recoverable from the archive.",
    run: (branch, options, context) => brief(branch, { keepTurns: num(options.keepTurns), maxLines: num(options.maxLines) }, context),
  },
];

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function findStrategy(name: string): StrategyInfo | undefined {
  return STRATEGIES.find((strategy) => strategy.name === name);
}
