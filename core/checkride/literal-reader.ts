/**
 * The `literal` reader, deterministic and built in: for each probe it
 * searches the context for the answer key's items and quotes the lines where
 * they stand, as a careful reader with no inference would. It measures
 * whether the facts are *present in the context*, never what a model would
 * recall, and is labelled so everywhere.
 */
import type { ContextLine } from "./context.ts";
import { ContextIndex } from "./context-index.ts";
import type { Probe } from "./probes.ts";
import type { ReaderAnswer, ReaderAnswers } from "./answers.ts";
import { basename, distinctiveTokens } from "./tokens.ts";

/**
 * How much of an item a context line must hold for the literal reader to
 * quote it (a share of the item's distinctive tokens). Each sits just above
 * what the grader needs, so a quoted line is one that can pass.
 */
export const LITERAL_MATCH = {
  /** A command not found verbatim: most of its tokens, so `npm test` is not quoted for `npm run build`. */
  command: 0.75,
  /** The latest request, looked for as a whole message: half of its tokens find it among similar ones. */
  request: 0.5,
  /** An error line: half of its tokens, as the error probe asks. */
  error: 0.5,
  /** A rule or memory item: as much as the grader's item coverage. */
  item: 0.6,
} as const;

const QUOTE_LIMIT = 400;

interface Quote {
  line: ContextLine;
  /** Quote the window around this text (a long line is not quoted whole). */
  around?: string;
  limit?: number;
}

const MESSAGE_QUOTE_LIMIT = 2000;

/** A line, or for a long one the window around what was looked for, or its two ends (where outcomes are printed). */
function quote({ line, around, limit = QUOTE_LIMIT }: Quote): string {
  const text = line.text;
  if (text.length <= limit) return text;
  const half = limit / 2;
  const at = around ? text.toLowerCase().indexOf(around.toLowerCase()) : -1;
  if (at !== -1) {
    const start = Math.max(0, at - half);
    return (start > 0 ? "…" : "") + text.slice(start, at + around!.length + half) + (at + around!.length + half < text.length ? "…" : "");
  }
  return text.slice(0, half) + " … " + text.slice(-half);
}

const OUTCOME_LINE = /\b(pass|passed|passes|fail|failed|error|ok|exit|exit_code|succeeded|tests?:)\b/i;

/** The first line after `at`, within its message and the next two, that states an outcome: the run's own result. */
function outcomeLinesAfter(lines: readonly ContextLine[], at: number): Quote[] {
  const messages = new Set<string>([lines[at]!.messageId]);
  for (let i = at + 1; i < lines.length; i++) {
    messages.add(lines[i]!.messageId);
    if (messages.size > 3) break;
    if (OUTCOME_LINE.test(lines[i]!.text)) return [{ line: lines[i]! }];
  }
  return [];
}

function answerFrom(found: Quote[]): ReaderAnswer {
  if (found.length === 0) return { answer: "Not found in the context.", evidence: [] };
  const quotes = [...new Set(found.map(quote))];
  return { answer: quotes.join("\n"), evidence: [...new Set(found.map((q) => q.line.messageId))] };
}

export function literalReader(probes: readonly Probe[], context: readonly ContextLine[] | ContextIndex): ReaderAnswers {
  const index = context instanceof ContextIndex ? context : ContextIndex.ofLines(context);
  const lines = index.lines;
  const lastLineContaining = (needle: string) => index.lastLineContaining(needle);
  const bestLine = (item: string, threshold: number) => index.bestLine(distinctiveTokens(item), threshold);
  const answers: ReaderAnswers = {};
  for (const probe of probes) {
    if (probe.expected === null) continue;
    const found: Quote[] = [];
    switch (probe.id) {
      case "files":
        for (const path of probe.items) {
          let at = lastLineContaining(path);
          let around = path;
          if (at === -1) at = lastLineContaining((around = basename(path)));
          if (at !== -1) found.push({ line: lines[at]!, around });
        }
        break;
      case "anchors":
        for (const anchor of probe.items) {
          const at = lastLineContaining(anchor);
          if (at !== -1) found.push({ line: lines[at]!, around: anchor });
        }
        break;
      case "verify": {
        // The latest mention of the command that is followed by an outcome (its result, or the
        // marker that replaced it, within the next two messages); else just the latest mention.
        const command = probe.items[0]!;
        const mentions = index.allLinesContaining(command);
        if (mentions.length === 0) {
          const line = bestLine(command, LITERAL_MATCH.command);
          if (line) mentions.push(lines.lastIndexOf(line));
        }
        let chosen: Quote[] | undefined;
        for (let m = mentions.length - 1; m >= 0 && !chosen; m--) {
          const outcome = outcomeLinesAfter(lines, mentions[m]!);
          if (outcome.length > 0) chosen = [{ line: lines[mentions[m]!]!, around: command.slice(0, 60) }, ...outcome];
        }
        if (!chosen && mentions.length > 0) chosen = [{ line: lines[mentions[mentions.length - 1]!]!, around: command.slice(0, 60) }];
        found.push(...(chosen ?? []));
        break;
      }
      case "intent": {
        // A request spans lines: look for the message that holds it, and quote the message.
        const message = index.bestMessage(distinctiveTokens(probe.expected), LITERAL_MATCH.request);
        if (message) found.push({ line: message, around: probe.items[0], limit: MESSAGE_QUOTE_LIMIT });
        break;
      }
      case "error": {
        const line = bestLine(probe.expected, LITERAL_MATCH.error);
        if (line) found.push({ line, around: probe.items[0] });
        break;
      }
      default:
        // rules and the memory-backed probes: quote the best line for each item.
        for (const item of probe.items) {
          const line = bestLine(item, LITERAL_MATCH.item);
          if (line) found.push({ line, around: distinctiveTokens(item)[0] });
        }
    }
    answers[probe.id] = answerFrom(found);
  }
  return answers;
}
