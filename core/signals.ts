import { textOf, type Message } from "./model.ts";

/**
 * Small signals found in text that a reader needs to stay oriented: anchors
 * (URLs, commit SHAs, issue and PR numbers, error codes) and the line of an
 * output that says what went wrong. Used by the checkride's facts and by the
 * transparent strategy's marker labels.
 */
/** Hex runs that look like commit SHAs; the letter-and-digit test is done in code (lookaheads here cost ~10× more). */
const HEX_RUN = /\b[0-9a-f]{7,40}\b/g;

const ANCHOR_PATTERNS: RegExp[] = [
  /https?:\/\/[^\s<>"'`)\]\\]+/g,
  /(?:^|[\s(])(#\d{2,6})\b/g,
  /\b(?:PR|pull request|issue)\s+#?(\d{2,6})\b/gi,
  /\b(?:E[A-Z]{3,12}|TS\d{4}|E\d{4}|HTTP [45]\d\d)\b/g,
];

export function anchorsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(HEX_RUN)) {
    if (/[a-f]/.test(match[0]) && /[0-9]/.test(match[0])) found.add(match[0]);
  }
  for (const pattern of ANCHOR_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      let value = (match[1] ?? match[0]).replace(/[.,;:]+$/, "");
      if (/^\d+$/.test(value)) value = `#${value}`;
      found.add(value);
    }
  }
  return [...found];
}

/** Most specific first: a named error, then a word of failure, then a test runner's failure mark. */
const ERROR_TIERS = [/\b\w*(Error|Exception)\b|panic|traceback|fatal/, /\b(error|fail(ed|ure)?|cannot|can't|not found|denied|refused)\b/i, /[✗●×]/];

/** The line of an output that best names the failure (or its first line). */
export function errorLineOf(output: string): string | undefined {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^(tests?:|test files)/i.test(line));
  for (const tier of ERROR_TIERS) {
    const hit = lines.find((line) => tier.test(line));
    if (hit) return hit;
  }
  return lines[0];
}

/**
 * A request the user typed: not a tool result, a compaction summary, a
 * Claude Code meta line or context an agent injects as a user message.
 */
export function isRealUserMessage(message: Message): boolean {
  if (message.role !== "user" || message.meta.isMeta === true || message.meta.isCompactSummary === true) return false;
  const text = textOf(message).trim();
  return text !== "" && !/^<(environment_context|user_instructions|permissions|system)/.test(text) && !/^This session is being continued/.test(text);
}
