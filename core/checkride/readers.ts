/**
 * Readers answer the probes holding only the active context: the `literal`
 * reader (literal-reader.ts) and the `endpoint` reader (endpoint-reader.ts).
 * This module holds what both answer with, and re-exports them.
 */
import type { ProbeId } from "./probes.ts";

export interface ReaderAnswer {
  answer: string;
  /** Message ids where the quoted text stands. */
  evidence: string[];
  /** Set when the reader could not answer (endpoint errors): the probe is inconclusive. */
  inconclusive?: string;
}

export type ReaderAnswers = Partial<Record<ProbeId, ReaderAnswer>>;

export { literalReader } from "./literal-reader.ts";
export { endpointReader, quizPrompt } from "./endpoint-reader.ts";
export { chatCompletionsUrl, type EndpointConfig } from "../endpoint.ts";
