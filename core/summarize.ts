/**
 * Model-written summaries for the strategies that have a summary slot
 * (pi-default, handoff), through any OpenAI-compatible chat completions
 * endpoint the user runs. Without an endpoint the slot says that no summary
 * was written; with one that fails, it says why. Never invented.
 */
import { chatCompletion, type EndpointConfig } from "./endpoint.ts";
import { textOf, type Message } from "./model.ts";

export type SummaryResult = { ok: true; text: string } | { ok: false; reason: string };

/** The conversation as plain text for a summarizer (tool output shortened: the summary is about the work). */
export function transcriptFor(messages: readonly Message[], outputLimit = 2000): string {
  const parts: string[] = [];
  for (const message of messages) {
    const text = textOf(message);
    const calls = message.blocks.flatMap((b) => (b.type === "toolCall" ? [`→ ${b.name} ${JSON.stringify(b.arguments)}`] : []));
    const body = message.role === "toolResult" || message.role === "bash" ? (text.length > outputLimit ? `${text.slice(0, outputLimit)} […]` : text) : text;
    parts.push(`[${message.role}]\n${[body, ...calls].filter(Boolean).join("\n")}`);
  }
  return parts.join("\n\n");
}

export const SUMMARY_SECTIONS = ["Goal", "Constraints & Preferences", "Progress", "Key Decisions", "Next Steps", "Critical Context"];

export function summaryPrompt(transcript: string, mustState: readonly string[] = []): { system: string; user: string } {
  return {
    system:
      "You write the hand-over note another coding agent will continue from. Use only what the conversation says. Keep exact file paths, commands, error messages and the user's rules.",
    user:
      `<conversation>\n${transcript}\n</conversation>\n\nWrite a summary with these sections, as Markdown headings: ${SUMMARY_SECTIONS.join(", ")}.` +
      (mustState.length > 0 ? `\n\nThe summary must state each of these, word for word where quoted:\n${mustState.map((line) => `- ${line}`).join("\n")}` : ""),
  };
}

export async function summarizeWithEndpoint(messages: readonly Message[], endpoint: EndpointConfig, mustState: readonly string[] = []): Promise<SummaryResult> {
  const { system, user } = summaryPrompt(transcriptFor(messages), mustState);
  const reply = await chatCompletion(endpoint, system, user, 300_000);
  if (!reply.ok) return reply;
  return reply.text.trim() ? { ok: true, text: reply.text.trim() } : { ok: false, reason: "the endpoint's reply has no text" };
}
