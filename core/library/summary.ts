/**
 * The per-agent summary of a library: how many sessions and compactions each
 * agent has, and the median share of asked facts still present after the
 * agent's own compactions against what transparent compaction kept at the
 * same moments. One implementation for the CLI, the app and the HTML report.
 */
import type { LibraryCompactionRow, LibrarySessionRow } from "./rows.ts";

export interface AgentSummary {
  agent: string;
  sessions: number;
  compactions: number;
  /** Median over compactions of present/asked after the agent's compaction; null without compactions asking anything. */
  medianKeptRecorded: number | null;
  /** The same median for transparent compaction at the same moments. */
  medianKeptTransparent: number | null;
  factsDropped: number;
}

export function summarizeByAgent(sessions: readonly LibrarySessionRow[], compactions: readonly LibraryCompactionRow[]): AgentSummary[] {
  const agentOf = new Map(sessions.map((row) => [row.path, row.agent]));
  const byAgent = new Map<string, { sessions: number; recorded: number[]; transparent: number[]; compactions: number; dropped: number }>();
  const bucket = (agent: string) => {
    let entry = byAgent.get(agent);
    if (!entry) byAgent.set(agent, (entry = { sessions: 0, recorded: [], transparent: [], compactions: 0, dropped: 0 }));
    return entry;
  };
  for (const row of sessions) bucket(row.agent).sessions++;
  for (const row of compactions) {
    const entry = bucket(agentOf.get(row.path) ?? "unknown");
    entry.compactions++;
    entry.dropped += row.dropped.facts.length;
    if (row.facts.asked > 0) {
      entry.recorded.push(row.facts.recorded / row.facts.asked);
      entry.transparent.push(row.facts.transparent / row.facts.asked);
    }
  }
  return [...byAgent.entries()]
    .map(([agent, entry]) => ({
      agent,
      sessions: entry.sessions,
      compactions: entry.compactions,
      medianKeptRecorded: median(entry.recorded),
      medianKeptTransparent: median(entry.transparent),
      factsDropped: entry.dropped,
    }))
    .sort((a, b) => b.compactions - a.compactions || compareText(a.agent, b.agent));
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Sessions worst first: most facts dropped, then the lowest kept share at the worst compaction, then path. */
export function byFactsDropped(a: LibrarySessionRow, b: LibrarySessionRow): number {
  const share = (row: LibrarySessionRow) => (row.worstCompaction && row.worstCompaction.asked > 0 ? row.worstCompaction.recorded / row.worstCompaction.asked : 1);
  return b.factsDropped - a.factsDropped || share(a) - share(b) || compareText(a.path, b.path);
}

const collator = new Intl.Collator();

/**
 * `a.localeCompare(b)`, with one collator made once: localeCompare builds one
 * per call, which dominated sorting a library's thousand rows on every update.
 */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}
