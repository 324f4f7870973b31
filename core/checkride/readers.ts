/**
 * Readers answer the probes holding only the active context: the `literal`
 * reader (literal-reader.ts) and the `endpoint` reader (endpoint-reader.ts).
 * This module re-exports them with what both answer with (answers.ts).
 */
export type { ReaderAnswer, ReaderAnswers } from "./answers.ts";
export { literalReader } from "./literal-reader.ts";
export { endpointReader, quizPrompt } from "./endpoint-reader.ts";
export { chatCompletionsUrl, type EndpointConfig } from "../endpoint.ts";
