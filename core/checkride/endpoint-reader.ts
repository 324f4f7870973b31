/**
 * The `endpoint` reader asks any OpenAI-compatible chat completions server
 * (llama.cpp, Ollama, vLLM, LM Studio) one request per probe set. A timeout,
 * an HTTP error or an unreadable reply makes every answer inconclusive,
 * never a fail.
 */
import { chatCompletion, type EndpointConfig } from "../endpoint.ts";
import type { Probe } from "./probes.ts";
import type { ReaderAnswers } from "./answers.ts";

/** What every model reader is told, whatever the runtime: the endpoint's JSON quiz and the local reader's one question at a time. */
export const READER_INSTRUCTIONS =
  'You are taking over a coding session. You hold only the context below. Answer each question from that context alone; quote exact file paths, commands, error text and rules. If the context does not say, answer "I don\'t know".';

export function quizPrompt(probes: readonly Probe[], context: string): { system: string; user: string } {
  const asked = probes.filter((p) => p.expected !== null);
  return {
    system: `${READER_INSTRUCTIONS} Reply with one JSON object whose keys are the question ids and whose values are your answers as strings, and nothing else.`,
    user: `<context>\n${context}\n</context>\n\nQuestions:\n${asked.map((p) => `- ${p.id}: ${p.question}`).join("\n")}\n\nReply as JSON: {${asked.map((p) => `"${p.id}": "..."`).join(", ")}}`,
  };
}

export async function endpointReader(probes: readonly Probe[], context: string, config: EndpointConfig): Promise<ReaderAnswers> {
  const asked = probes.filter((p) => p.expected !== null);
  const all = (reason: string): ReaderAnswers => Object.fromEntries(asked.map((p) => [p.id, { answer: "", evidence: [], inconclusive: reason }]));
  const { system, user } = quizPrompt(probes, context);
  const reply = await chatCompletion(config, system, user, 120_000);
  if (!reply.ok) return all(reply.reason);
  const json = /\{[\s\S]*\}/.exec(reply.text)?.[0];
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(json) : undefined;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return all("the endpoint's reply is not the JSON object asked for");
  const answers: ReaderAnswers = {};
  for (const probe of asked) {
    const value = (parsed as Record<string, unknown>)[probe.id];
    answers[probe.id] =
      value === undefined
        ? { answer: "", evidence: [], inconclusive: "the reply has no answer for this question" }
        : { answer: typeof value === "string" ? value : JSON.stringify(value), evidence: [] };
  }
  return answers;
}
