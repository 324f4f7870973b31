/**
 * Repeated compaction: the session cut at N points; round k compacts the
 * previous round's active view plus the messages that came after it, and the
 * checkride grades round k against the facts of the record up to its cut.
 * Optionally a planted fact (with a look-alike distractor elsewhere) shows
 * which strategies still carry it after each round.
 */
import type { Checkpoint } from "../checkpoint.ts";
import type { Message } from "../model.ts";
import { findStrategy } from "../strategies/index.ts";
import type { StrategyContext } from "../strategies/types.ts";
import { extractFacts } from "../checkride/facts.ts";
import { runCheckride, type CheckrideOptions } from "../checkride/run.ts";
import { distinctiveTokens } from "../checkride/tokens.ts";

export interface Plant {
  /** The fact or rule, written as the user would. */
  text: string;
  /** Insert before this branch message index. */
  at: number;
  /** A look-alike that must not be taken for the fact; derived from the fact when absent. */
  distractor?: string;
  /** Insert the distractor before this index (default: the middle of the rest). */
  distractorAt?: number;
}

export interface RoundScore {
  round: number;
  /** Branch messages the round has seen. */
  messages: number;
  passed: number;
  asked: number;
  /** For a planted fact: pass, fail (absent), or confused (only the distractor is there). */
  planted?: "pass" | "fail" | "confused";
  activeChars: number;
}

export interface RoundsResult {
  strategy: string;
  rounds: RoundScore[];
}

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** A look-alike: the same sentence with its most distinctive token changed (a number +1, the next weekday, or a twin word). */
export function deriveDistractor(fact: string): string {
  const numbers = [...fact.matchAll(/\d+/g)];
  if (numbers.length > 0) {
    const last = numbers[numbers.length - 1]!;
    return fact.slice(0, last.index) + String(Number(last[0]) + 1) + fact.slice(last.index! + last[0].length);
  }
  for (const [i, day] of WEEKDAYS.entries()) {
    const match = new RegExp(`\\b${day}`, "i").exec(fact);
    if (match) {
      const next = WEEKDAYS[(i + 1) % 7]!;
      const replacement = match[0][0] === match[0][0]!.toUpperCase() ? next[0]!.toUpperCase() + next.slice(1) : next;
      return fact.slice(0, match.index) + replacement + fact.slice(match.index + day.length);
    }
  }
  const tokens = distinctiveTokens(fact).sort((a, b) => b.length - a.length);
  const target = tokens[0];
  if (!target) return `${fact} (an older note)`;
  const at = fact.toLowerCase().indexOf(target);
  return fact.slice(0, at) + "old-" + fact.slice(at);
}

/** The token that tells the fact from its distractor. */
export function distinguishingToken(fact: string, distractor: string): string | undefined {
  const other = new Set(distinctiveTokens(distractor));
  return distinctiveTokens(fact).find((t) => !other.has(t));
}

export function plantedBranch(branch: readonly Message[], plant: Plant): { branch: Message[]; distractor: string } {
  const distractor = plant.distractor ?? deriveDistractor(plant.text);
  const at = Math.max(0, Math.min(branch.length, plant.at));
  const distractorAt = Math.max(0, Math.min(branch.length, plant.distractorAt ?? Math.floor((at + branch.length) / 2)));
  const fact: Message = { id: "planted:fact", role: "user", meta: { planted: "fact" }, blocks: [{ type: "text", text: plant.text }] };
  const decoy: Message = { id: "planted:distractor", role: "user", meta: { planted: "distractor" }, blocks: [{ type: "text", text: distractor }] };
  const out = [...branch];
  // Insert the later one first so the earlier index stays valid.
  if (distractorAt >= at) {
    out.splice(distractorAt, 0, decoy);
    out.splice(at, 0, fact);
  } else {
    out.splice(at, 0, fact);
    out.splice(distractorAt, 0, decoy);
  }
  return { branch: out, distractor };
}

function plantedStatus(active: readonly Message[], fact: string, distractor: string): "pass" | "fail" | "confused" {
  const text = active
    .map((m) => m.blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n"))
    .join("\n")
    .toLowerCase();
  const key = distinguishingToken(fact, distractor);
  const decoyKey = distinguishingToken(distractor, fact);
  const tokens = distinctiveTokens(fact);
  const present = tokens.filter((t) => text.includes(t)).length / Math.max(1, tokens.length) >= 0.6 && (!key || text.includes(key));
  if (present) return "pass";
  return decoyKey && text.includes(decoyKey) ? "confused" : "fail";
}

export async function runRounds(
  branchIn: readonly Message[],
  strategies: readonly string[],
  rounds: number,
  options: CheckrideOptions & { strategyOptions?: Record<string, unknown>; plant?: Plant; context?: Pick<StrategyContext, "cwd"> },
): Promise<RoundsResult[]> {
  const planted = options.plant ? plantedBranch(branchIn, options.plant) : undefined;
  const branch = planted?.branch ?? [...branchIn];
  const count = Math.max(1, Math.min(rounds, branch.length));
  const cuts = Array.from({ length: count }, (_, k) => Math.round((branch.length * (k + 1)) / count));
  const results: RoundsResult[] = [];
  for (const name of strategies) {
    const strategy = findStrategy(name);
    if (!strategy) throw new Error(`unknown strategy "${name}"`);
    const scores: RoundScore[] = [];
    let previous: Pick<Checkpoint, "active" | "archive"> | undefined;
    let seen = 0;
    for (const [k, cut] of cuts.entries()) {
      // Round k's input: what the previous round left in context, plus what came after.
      const input = previous ? [...previous.active, ...branch.slice(seen, cut)] : branch.slice(0, cut);
      const result = await strategy.run(input, options.strategyOptions ?? {}, {
        previous,
        cwd: options.context?.cwd,
        recorded: { messages: input, compactions: 0, droppedMessageIds: [] },
      });
      const prefix = branch.slice(0, cut);
      const facts = extractFacts(prefix, { cwd: options.context?.cwd, memory: options.memory });
      const graded = await runCheckride(name, prefix, result.active, options, facts);
      const score: RoundScore = { round: k + 1, messages: cut, passed: graded.passed, asked: graded.asked, activeChars: result.stats.activeChars };
      if (planted && cut > options.plant!.at) score.planted = plantedStatus(result.active, options.plant!.text, planted.distractor);
      scores.push(score);
      const known = new Set(previous?.archive.map((e) => e.id));
      previous = { active: result.active, archive: [...(previous?.archive ?? []), ...result.archive.filter((e) => !known.has(e.id))] };
      seen = cut;
    }
    results.push({ strategy: name, rounds: scores });
  }
  return results;
}
