export { formatBytes, formatCount } from "../../core/units.ts";

export const ROLE_LABELS: Record<string, string> = {
  user: "user",
  assistant: "assistant",
  toolResult: "tool result",
  bash: "bash",
  system: "system",
  custom: "custom",
  summary: "summary",
};

/** Milliseconds as a person reads them: "85 ms", "2.4 s". */
export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A moment (milliseconds since the epoch) as a date and minute in UTC, "2026-04-13 18:40": the same on every machine. */
export function formatDate(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "unknown time" : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
