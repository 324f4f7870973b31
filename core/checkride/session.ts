/** The checkride over a loaded session: every requested strategy, the same facts for all. */
import { compactSession } from "../compact.ts";
import type { Checkpoint } from "../checkpoint.ts";
import type { Message, Session } from "../model.ts";
import { sessionCwd } from "../session-info.ts";
import { STRATEGIES } from "../strategies/index.ts";
import { extractFacts, type FactOptions } from "./facts.ts";
import type { EndpointConfig } from "./readers.ts";
import { runCheckride, type CheckrideOptions, type CheckrideResult } from "./run.ts";

export { sessionCwd };

export async function checkrideSession(
  session: Session,
  strategies: readonly string[] | "all",
  options: CheckrideOptions,
  leafId: string | null = null,
  strategyOptions: Record<string, unknown> = {},
  /** A model for the strategies' summary slots (pi-default, handoff). */
  summaryEndpoint?: EndpointConfig,
): Promise<CheckrideResult[]> {
  const names = strategies === "all" ? STRATEGIES.map((s) => s.name) : strategies;
  const leaf = leafId ?? session.defaultLeafId;
  const branch = session.branch(leaf);
  const cwd = options.cwd ?? sessionCwd(session);
  const facts = extractFacts(branch, factOptions(session, cwd, options.memory));
  const results: CheckrideResult[] = [];
  for (const name of names) {
    const checkpoint = await compactSession(session, { name: "", bytes: 0, sha256: "" }, { strategy: name, options: strategyOptions, leafId: leaf, endpoint: summaryEndpoint });
    for (const target of checkrideTargets(checkpoint)) results.push(await runCheckride(target.name, branch, target.active, { ...options, cwd }, facts));
  }
  return results;
}

/** Fact options for a loaded session: its format (which text is human) and its header's ids (never anchors). Used by the CLI, the report and the app alike. */
export function factOptions(session: Pick<Session, "format" | "header">, cwd: string | undefined, memory?: string): FactOptions {
  return { cwd, memory, format: session.format, sessionIds: headerIds(session.header) };
}

/** The ids a session's header gives it (Pi's session id, Codex's session_meta id): never anchors. */
export function headerIds(header: unknown): string[] {
  if (typeof header !== "object" || header === null) return [];
  const record = header as Record<string, unknown>;
  const payload = typeof record.payload === "object" && record.payload !== null ? (record.payload as Record<string, unknown>) : {};
  return [record.id, record.sessionId, record.session_id, payload.id, payload.session_id].filter((v): v is string => typeof v === "string");
}

/**
 * What to quiz for one checkpoint: the active view, and for a tiered
 * strategy (handoff) each tier first: "handoff · summary alone", …
 */
export function checkrideTargets(checkpoint: Pick<Checkpoint, "strategy" | "active">): { name: string; active: Message[] }[] {
  const name = checkpoint.strategy.name;
  const tiers = checkpoint.strategy.tiers as Record<string, number> | undefined;
  const targets = Object.entries(tiers ?? {}).map(([tier, count]) => ({ name: `${name} · ${tier}`, active: checkpoint.active.slice(0, count) }));
  targets.push({ name, active: checkpoint.active });
  return targets;
}
