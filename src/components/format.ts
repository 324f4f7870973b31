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
