/**
 * `handoff`, in the style of mempact's verified hand-off pipeline:
 *   1. tool outputs capped at 10 KB as recorded (first and last 5 KB kept);
 *      unlike mempact, the full output stays recoverable in the archive;
 *   2. a clearing tier: every tool result older than the newest 3 stubbed to
 *      its first line plus a recovery pointer;
 *   3. a staples block built by code from the record (modified and read
 *      files, anchors, user constraints, last run, unresolved error, the
 *      latest user request verbatim), each part labelled;
 *   4. the newest real user messages verbatim, up to 20k estimated tokens;
 *   5. a summary slot: a model writes it when an endpoint is set; without one
 *      it says that none was written. A guard line says the summary is
 *      reference and the latest user message wins.
 * The checkride scores three tiers: summary alone, summary + staples, the
 * full assembly (`details.tiers` gives how many leading messages each is).
 */
import { extractFacts, type Facts } from "../checkride/facts.ts";
import { runCheckride } from "../checkride/run.ts";
import { summarizeWithEndpoint } from "../summarize.ts";
import { textOf, type Block, type Message } from "../model.ts";
import { oneLine } from "../text.ts";
import { toolCallsById, toolOutcome } from "../tool-info.ts";
import { archiveRemovals, estimateTokens, isRealUserMessage, statsOf, textMessage, type Removal } from "./shared.ts";
import type { StrategyContext, StrategyResult } from "./types.ts";

export interface HandoffOptions {
  capBytes?: number;
  keepResults?: number;
  userTokenBudget?: number;
}

const CAP = 10 * 1024;
const KEEP_RESULTS = 3;
const USER_TOKENS = 20_000;
export const GUARD_LINE = "The summary above is reference material written from the history; where it and the latest user message disagree, the latest user message wins.";
export const NO_SUMMARY = "[No summary was written: the handoff summary comes from a model, and no model endpoint is set. The staples below are built by code from the record.]";

function staplesText(facts: Facts): string {
  const part = (tag: string, body: string | undefined) => (body && body.trim() ? `<${tag}>\n${body.trim()}\n</${tag}>` : `<${tag}>\n(none recorded)\n</${tag}>`);
  const lastRun = facts.lastRun
    ? `${facts.lastRun.command}\n→ ${facts.lastRun.passed === undefined ? "outcome not recorded" : facts.lastRun.passed ? "passed" : "failed"}${facts.lastRun.exitCode !== undefined ? ` (exit ${facts.lastRun.exitCode})` : ""}`
    : undefined;
  return [
    "[Staples: built by code from the session record, not by a model.]",
    part("modified-files", facts.modifiedFiles.join("\n")),
    part("read-files", facts.readFiles.slice(0, 40).join("\n")),
    part(
      "anchors",
      // The graded anchors first, then the candidates (links, refs): a staple costs a line, a lost link a re-search.
      [...facts.anchors, ...facts.anchorCandidates]
        .slice(0, 12)
        .map((a) => a.value)
        .join("\n"),
    ),
    part(
      "user-constraints",
      facts.rules
        .slice(-12)
        .map((r) => `- ${r.text}`)
        .join("\n"),
    ),
    part("last-run", lastRun),
    part("unresolved-error", facts.unresolvedError?.text),
    part("latest-user-request", facts.latestRequest?.text),
  ].join("\n\n");
}

/** A text capped to `cap` UTF-16 units: its first and last halves with the cut marked. */
function capText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const half = Math.floor(cap / 2);
  return `${text.slice(0, half)}\n[… ${text.length - cap} characters cut; the full output is in the archive …]\n${text.slice(-half)}`;
}

export async function handoff(branch: readonly Message[], options: HandoffOptions, context: StrategyContext): Promise<StrategyResult> {
  const cap = options.capBytes ?? CAP;
  const keepResults = options.keepResults ?? KEEP_RESULTS;
  const budget = options.userTokenBudget ?? USER_TOKENS;
  const facts = extractFacts(branch, { cwd: context.cwd });
  const calls = toolCallsById(branch);
  const removals: Removal[] = [];

  // The tail the next agent continues from: everything after the latest real user message.
  let lastUser = -1;
  for (let i = branch.length - 1; i >= 0; i--)
    if (isRealUserMessage(branch[i]!)) {
      lastUser = i;
      break;
    }
  const tail = branch.slice(lastUser + 1);

  // Newest real user messages, verbatim, newest first until the budget is spent (the latest always).
  const userMessages: Message[] = [];
  let spent = 0;
  for (let i = lastUser; i >= 0; i--) {
    const message = branch[i]!;
    if (!isRealUserMessage(message)) continue;
    const tokens = estimateTokens(textOf(message));
    if (userMessages.length > 0 && spent + tokens > budget) break;
    userMessages.unshift(message);
    spent += tokens;
  }

  // Tool results in the tail: the newest `keepResults` capped, older ones stubbed to their first line.
  const resultIndexes = tail.flatMap((m, i) => (m.role === "toolResult" || m.role === "bash" ? [i] : []));
  const keptResults = new Set(resultIndexes.slice(-keepResults));
  const tailActive = tail.map((message, i): Message => {
    if (message.role !== "toolResult" && message.role !== "bash") return message;
    const text = textOf(message);
    const outcome = toolOutcome(message, calls);
    if (keptResults.has(i)) {
      if (text.length <= cap && message.blocks.every((b) => b.type === "text")) return message;
      removals.push({ message, path: "/blocks", payload: message.blocks, kind: message.role === "bash" ? "bashOutput" : "toolResult" });
      return { ...message, blocks: [{ type: "text", text: capText(text, cap) } satisfies Block] };
    }
    removals.push({ message, path: "/blocks", payload: message.blocks, kind: message.role === "bash" ? "bashOutput" : "toolResult" });
    const firstLine = oneLine(text.split("\n").find((l) => l.trim()) ?? "", 200);
    const stub = `[cleared ${outcome.toolName ?? "tool"} result${outcome.isError ? " (error)" : ""}: ${firstLine || "(empty)"} · full output: recover ${message.id}#/blocks]`;
    return { ...message, blocks: [{ type: "text", text: stub } satisfies Block] };
  });

  // Everything not carried verbatim is what the summary must cover.
  const carried = new Set([...userMessages, ...tail].map((m) => m.id));
  const history = branch.filter((m) => !carried.has(m.id));
  const written = context.endpoint && history.length > 0 ? await writeVerifiedSummary(history, branch, facts, context) : undefined;
  const summaryText = written ? written.text : NO_SUMMARY;
  const summary = textMessage("handoff:summary", "summary", `${summaryText}\n\n${GUARD_LINE}`, { strategy: "handoff", tier: "summary" });
  const staples = textMessage("handoff:staples", "summary", staplesText(facts), { strategy: "handoff", tier: "staples" });
  const active = [summary, staples, ...userMessages, ...tailActive];

  // Everything else on the branch is out of the context: recoverable, whole.
  for (const message of history) removals.push({ message, path: "", payload: message, kind: "message" });
  const archive = await archiveRemovals(removals);
  return {
    active,
    archive,
    stats: statsOf(branch, active, archive),
    details: {
      tiers: { "summary alone": 1, "summary + staples": 2 },
      summary: written ? written.status : "none (no model endpoint)",
      ...(written ? { quiz: written.quiz } : {}),
      userMessagesKept: userMessages.length,
      userTokens: spent,
      tailMessages: tail.length,
      clearedResults: resultIndexes.length - keptResults.size,
    },
  };
}

/**
 * mempact's verification loop: the summary alone is quizzed (literal reader,
 * facts from the record); a failed quiz triggers one regeneration with the
 * missed facts as explicit must-state lines; whatever is still missing is
 * spliced in verbatim, labelled as such.
 */
async function writeVerifiedSummary(history: readonly Message[], branch: readonly Message[], facts: Facts, context: StrategyContext) {
  const endpoint = context.endpoint!;
  const quizOf = async (text: string) => {
    const result = await runCheckride("handoff summary", branch, [textMessage("handoff:summary", "summary", text)], { reader: "literal", cwd: context.cwd }, facts);
    return { result, failed: result.probes.filter((p) => p.status === "fail") };
  };
  const first = await summarizeWithEndpoint(history, endpoint);
  if (!first.ok) return { text: `[No summary was written: the model endpoint failed (${first.reason}).]`, status: `failed: ${first.reason}`, quiz: {} };
  const firstQuiz = await quizOf(first.text);
  const quiz: Record<string, string> = { first: `${firstQuiz.result.passed}/${firstQuiz.result.asked}` };
  if (firstQuiz.failed.length === 0) return { text: first.text, status: `written by ${endpoint.model}`, quiz };
  const mustState = firstQuiz.failed.map((p) => `${p.id}: ${p.expected}`);
  const second = await summarizeWithEndpoint(history, endpoint, mustState);
  const secondText = second.ok ? second.text : first.text;
  const secondQuiz = await quizOf(secondText);
  quiz.regenerated = `${secondQuiz.result.passed}/${secondQuiz.result.asked}`;
  if (secondQuiz.failed.length === 0) return { text: secondText, status: `regenerated by ${endpoint.model} with must-state lines`, quiz };
  const splice = secondQuiz.failed.map((p) => `- ${p.id}: ${p.expected}`).join("\n");
  quiz.spliced = secondQuiz.failed.map((p) => p.id).join(", ");
  return {
    text: `${secondText}\n\n[Facts from the record, spliced in verbatim because the summary missed them:]\n${splice}`,
    status: `regenerated by ${endpoint.model}, then ${secondQuiz.failed.length} fact(s) spliced verbatim`,
    quiz,
  };
}
