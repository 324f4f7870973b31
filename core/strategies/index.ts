/**
 * The strategy registry: each strategy is a pure function branch → result
 * with serializable options. The app's picker and the CLI's --strategy read
 * this list, so a new strategy slots in here and nowhere else.
 */
import type { Message } from "../model.ts";
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
    run: (branch, options, context) =>
      transparent(branch, { maxProseChars: typeof options.maxProseChars === "number" ? options.maxProseChars : undefined }, context),
  },
  {
    name: "recorded",
    label: "Recorded (the compactions in the file)",
    description: "What the real agent would send now, after the compactions recorded in the session; everything it dropped is listed in the archive.",
    run: (branch, _options, context) => recorded(branch, context),
  },
];

export function findStrategy(name: string): StrategyInfo | undefined {
  return STRATEGIES.find((strategy) => strategy.name === name);
}
