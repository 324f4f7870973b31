/**
 * Sizes and counts as people read them: one formatter for the app, the CLI
 * and the reports, so a session's size reads the same everywhere. Decimal
 * units (1 MB = 1,000,000 bytes), as the CLI's progress, the benchmarks and
 * the docs count; the app used to divide by 1,024 and say "MB".
 */

export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** One formatter for every count: toLocaleString makes a new one per call (a library table formats thousands). */
const COUNT_FORMAT = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}
