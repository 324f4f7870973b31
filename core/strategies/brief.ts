/**
 * `brief`, in the style of pi-vcc: no model. The newest user turns stay as
 * they were (their tool outputs moved to the archive behind markers); the
 * history before them becomes one deterministic brief: sections (session
 * goal, files and changes, commits, outstanding context, user preferences)
 * and a transcript where tool calls are one-liners and prose is truncated
 * (user text up to 256 words; assistant text to its first 80 and last 120
 * words). Everything removed is recoverable from the archive.
 *
 * Differences from pi-vcc itself (documented in the README): this is a
 * re-implementation from its description, not its code; the transcript is
 * chronological with a line budget (user lines first), not pi-vcc's own
 * ranking; the facts come from this project's extractor.
 */
import { extractFacts } from "../checkride/facts.ts";
import { textOf, type Message } from "../model.ts";
import { oneLine } from "../text.ts";
import { toolCallsById, toolOutcome } from "../tool-info.ts";
import { archiveRemovals, firstWords, headAndTail, isRealUserMessage, startOfLastTurns, statsOf, textMessage, type Removal } from "./shared.ts";
import { transparent } from "./transparent.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export interface BriefOptions {
  /** Newest user turns kept as they were (default 2). */
  keepTurns?: number;
  /** Most transcript lines in the brief (default 400). */
  maxLines?: number;
}

export async function brief(branch: readonly Message[], options: BriefOptions, context: StrategyContext): Promise<StrategyResult> {
  const keepTurns = options.keepTurns ?? 2;
  const maxLines = options.maxLines ?? 400;
  const cut = startOfLastTurns(branch, keepTurns);
  const history = branch.slice(0, cut);
  const recent = branch.slice(cut);

  // The recent turns: as transparent leaves them (tool output behind recoverable markers).
  const tail = await transparent(recent, {}, {});
  if (history.length === 0) {
    return { active: tail.active, archive: tail.archive, stats: statsOf(branch, tail.active, tail.archive), details: { keepTurns, briefedMessages: 0 } };
  }

  const facts = extractFacts(history, { cwd: context.cwd });
  const sections: string[] = [];
  const firstUser = history.find(isRealUserMessage);
  if (firstUser) sections.push(`## Session goal\n${firstWords(textOf(firstUser), 256)}`);
  if (facts.modifiedFiles.length || facts.readFiles.length) {
    sections.push(
      `## Files and changes\n${facts.modifiedFiles.map((f) => `- modified: ${f}`).join("\n")}${facts.modifiedFiles.length && facts.readFiles.length ? "\n" : ""}${facts.readFiles
        .slice(0, 30)
        .map((f) => `- read: ${f}`)
        .join("\n")}`,
    );
  }
  const commits = history
    .flatMap((m) => m.blocks)
    .flatMap((b) => (b.type === "toolCall" ? [JSON.stringify(b.arguments)] : []))
    .filter((args) => /git commit/.test(args))
    .map((args) => `- ${oneLine(args.replace(/^\{"command":"|"\}$/g, ""), 200)}`);
  if (commits.length) sections.push(`## Commits\n${commits.slice(-10).join("\n")}`);
  const outstanding: string[] = [];
  if (facts.lastRun)
    outstanding.push(
      `- last run: \`${oneLine(facts.lastRun.command, 200)}\` ${facts.lastRun.passed === undefined ? "(outcome not recorded)" : facts.lastRun.passed ? "passed" : "failed"}`,
    );
  if (facts.unresolvedError) outstanding.push(`- unresolved error: ${oneLine(facts.unresolvedError.text, 300)}`);
  if (outstanding.length) sections.push(`## Outstanding context\n${outstanding.join("\n")}`);
  if (facts.rules.length)
    sections.push(
      `## User preferences\n${facts.rules
        .slice(-10)
        .map((r) => `- ${r.text}`)
        .join("\n")}`,
    );

  const calls = toolCallsById(history);
  const userLines: { index: number; line: string }[] = [];
  const otherLines: { index: number; line: string }[] = [];
  history.forEach((message, index) => {
    if (message.role === "user" && isRealUserMessage(message)) userLines.push({ index, line: `[user] ${firstWords(textOf(message), 256)}` });
    else if (message.role === "assistant") {
      const text = textOf(message);
      if (text.trim()) otherLines.push({ index, line: `[assistant] ${headAndTail(text, 80, 120)}` });
      for (const block of message.blocks)
        if (block.type === "toolCall") otherLines.push({ index, line: `[tool] ${block.name} ${oneLine(JSON.stringify(block.arguments) ?? "", 140)}` });
    } else if (message.role === "toolResult" || message.role === "bash") {
      const outcome = toolOutcome(message, calls);
      if (outcome.isError) otherLines.push({ index, line: `[result] ${outcome.toolName ?? "tool"} failed${outcome.exitCode !== undefined ? ` (exit ${outcome.exitCode})` : ""}` });
    } else if (message.role === "summary") {
      otherLines.push({ index, line: `[earlier summary] ${firstWords(textOf(message), 120)}` });
    }
  });
  // A line budget: user lines first, then the newest of the rest.
  const budget = Math.max(0, maxLines - userLines.length);
  const chosen = [...userLines, ...otherLines.slice(Math.max(0, otherLines.length - budget))].sort((a, b) => a.index - b.index);
  const omittedLines = userLines.length + otherLines.length - chosen.length;
  const transcript = `## Transcript brief${omittedLines > 0 ? ` (${omittedLines} older lines left out)` : ""}\n${chosen.map((l) => l.line).join("\n")}`;

  const briefText = `[Brief of the ${history.length} earlier messages, written by code in the style of pi-vcc; the originals are in the archive.]\n\n${[...sections, transcript].join("\n\n")}`;
  const briefMessage = textMessage("brief:history", "summary", briefText, { strategy: "brief", briefedMessages: history.length });
  const removals: Removal[] = history.map((message) => ({ message, path: "", payload: message, kind: "message" }));
  const archive = [...(await archiveRemovals(removals)), ...tail.archive];
  const active = [briefMessage, ...tail.active];
  return { active, archive, stats: statsOf(branch, active, archive), details: { keepTurns, briefedMessages: history.length, transcriptLines: chosen.length } };
}
