export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
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
