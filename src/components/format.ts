export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One formatter for every count: toLocaleString makes a new one per call (a library table formats thousands). */
const COUNT_FORMAT = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}

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
