/**
 * Small signals found in text that a reader needs to stay oriented: anchors
 * (URLs, commit SHAs, issue and PR numbers, error codes) and the line of an
 * output that says what went wrong. Used by the checkride's facts and by the
 * transparent strategy's marker labels.
 */
const ANCHOR_PATTERNS: RegExp[] = [
  /https?:\/\/[^\s<>"'`)\]\\]+/g,
  /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/g,
  /(?:^|[\s(])(#\d{2,6})\b/g,
  /\b(?:PR|pull request|issue)\s+#?(\d{2,6})\b/gi,
  /\b(?:E[A-Z]{3,12}|TS\d{4}|E\d{4}|HTTP [45]\d\d)\b/g,
];

export function anchorsIn(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of ANCHOR_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      let value = (match[1] ?? match[0]).replace(/[.,;:]+$/, "");
      if (/^\d+$/.test(value)) value = `#${value}`;
      found.add(value);
    }
  }
  return [...found];
}

const ERROR_LINE = /(error|exception|fail(ed|ure)?|panic|traceback|cannot|not found|✗|●)/i;

/** The first line of an output that names the failure (or its first line). */
export function errorLineOf(output: string): string | undefined {
  const lines = output.split("\n").map((line) => line.trim()).filter(Boolean);
  const hit = lines.find((line) => ERROR_LINE.test(line) && !/^(tests?:|test files)/i.test(line) && !/^(FAIL|●)\s*\S*$/.test(line));
  return hit ?? lines[0];
}
