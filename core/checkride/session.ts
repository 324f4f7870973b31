/** The checkride over a loaded session: every requested strategy, the same facts for all. */
import { compactSession } from "../compact.ts";
import type { Session } from "../model.ts";
import { STRATEGIES } from "../strategies/index.ts";
import { extractFacts } from "./facts.ts";
import { runCheckride, type CheckrideOptions, type CheckrideResult } from "./run.ts";

export function sessionCwd(session: Session): string | undefined {
  const header = session.header as { cwd?: unknown } | undefined;
  return typeof header?.cwd === "string" ? header.cwd : undefined;
}

export async function checkrideSession(
  session: Session,
  strategies: readonly string[] | "all",
  options: CheckrideOptions,
  leafId: string | null = null,
  strategyOptions: Record<string, unknown> = {},
): Promise<CheckrideResult[]> {
  const names = strategies === "all" ? STRATEGIES.map((s) => s.name) : strategies;
  const leaf = leafId ?? session.defaultLeafId;
  const branch = session.branch(leaf);
  const cwd = options.cwd ?? sessionCwd(session);
  const facts = extractFacts(branch, { cwd, memory: options.memory });
  const results: CheckrideResult[] = [];
  for (const name of names) {
    const checkpoint = await compactSession(session, { name: "", bytes: 0, sha256: "" }, { strategy: name, options: strategyOptions, leafId: leaf });
    results.push(await runCheckride(name, branch, checkpoint.active, { ...options, cwd }, facts));
  }
  return results;
}
