/**
 * The `local` reader: a model on the user's own machine answers the probes,
 * one question at a time (a small model keeps one question in mind better
 * than a JSON object of nine), with the same fixed question template and the
 * same grader as the endpoint reader. The runtime is behind LocalModel:
 * node-llama-cpp in the CLI (core/cli/local-model.ts); nothing here loads
 * weights or touches the file system.
 *
 * A context longer than the model's window is never cut to fit: each probe
 * is inconclusive, "does not fit in N tokens" (the strategy under test is
 * what compacts, not the reader).
 */
import type { ReaderAnswers } from "../answers.ts";
import type { Probe } from "../probes.ts";
import { READER_INSTRUCTIONS } from "../endpoint-reader.ts";

/** What the checkride shows beside every score a local model gave. */
export interface LocalModelIdentity {
  /** The model's own name (general.name), else its file name. */
  name: string;
  file: string;
  /** ggml's file type, e.g. "F32", "Q4_K_M". */
  quantization: string;
  /** The window the reader runs with, in the model's tokens. */
  contextSize: number;
  /** Where it runs: "node-llama-cpp 3.21.1 (CPU)". */
  runtime: string;
}

export interface Completion {
  text: string;
  promptTokens: number;
  answerTokens: number;
  ms: number;
}

/** A loaded model: counts its own tokens, completes a prompt greedily (temperature 0, so runs repeat). */
export interface LocalModel {
  identity: LocalModelIdentity;
  /** The model's own token count (async where the runtime is in another thread). */
  countTokens(text: string): number | Promise<number>;
  complete(prompt: string, maxTokens: number): Promise<Completion>;
  dispose(): Promise<void>;
}

/** Tokens a reply may take: enough for a list of paths or rules, short enough to bound the time. */
export const ANSWER_TOKENS = 96;

/** The endpoint reader's instructions, for one question. */
export const LOCAL_INSTRUCTIONS = READER_INSTRUCTIONS.replace("Answer each question", "Answer the question");

/** The one prompt template per probe: instructions, the context, the question, and the answer to complete. */
export function localPrompt(context: string, question: string): string {
  return `${LOCAL_INSTRUCTIONS}\n\n<context>\n${context}\n</context>\n\nQuestion: ${question}\nAnswer:`;
}

export interface LocalProgress {
  done: number;
  total: number;
  /** Prompt tokens of the probe just answered, and how long it took. */
  promptTokens: number;
  ms: number;
}

export interface LocalAnswers {
  answers: ReaderAnswers;
  /** Milliseconds per probe id. */
  timings: Record<string, number>;
}

export async function localModelReader(probes: readonly Probe[], context: string, model: LocalModel, onProgress?: (step: LocalProgress) => void): Promise<LocalAnswers> {
  const asked = probes.filter((p) => p.expected !== null);
  const answers: ReaderAnswers = {};
  const timings: Record<string, number> = {};
  const window = model.identity.contextSize;
  for (const [index, probe] of asked.entries()) {
    const prompt = localPrompt(context, probe.question);
    const promptTokens = await model.countTokens(prompt);
    if (promptTokens + ANSWER_TOKENS > window) {
      answers[probe.id] = {
        answer: "",
        evidence: [],
        inconclusive: `does not fit in ${window.toLocaleString("en-US")} tokens (the context and question take ${promptTokens.toLocaleString("en-US")})`,
      };
      timings[probe.id] = 0;
      onProgress?.({ done: index + 1, total: asked.length, promptTokens, ms: 0 });
      continue;
    }
    const reply = await model.complete(prompt, ANSWER_TOKENS);
    answers[probe.id] = { answer: firstAnswer(reply.text), evidence: [] };
    timings[probe.id] = reply.ms;
    onProgress?.({ done: index + 1, total: asked.length, promptTokens: reply.promptTokens, ms: reply.ms });
  }
  return { answers, timings };
}

/** The answer up to where the model starts a new question of its own. */
export function firstAnswer(text: string): string {
  return text.split(/\n\s*Question:/)[0]!.trim();
}
