/** One checkride: facts from the branch, probes, a reader on the active context, grades. */
import type { Message } from "../model.ts";
import { contextText } from "./context.ts";
import { ContextIndex, type ContextTexts } from "./context-index.ts";
import { extractFacts, type Facts } from "./facts.ts";
import { buildProbes } from "./probes.ts";
import { applyKeyEdits, factMet, type KeyEdits } from "./key-edits.ts";
import type { FactSource } from "./source.ts";
import { endpointReader, literalReader, type EndpointConfig, type ReaderAnswers } from "./readers.ts";
import { localModelReader, type LocalModel, type LocalModelIdentity, type LocalProgress } from "./local-model/reader.ts";
import { verdictCounts, verdictOf, type Verdict } from "./verdict.ts";

export type ReaderKind = "literal" | "endpoint" | "local";

export type ProbeStatus = "pass" | "fail" | "skipped" | "inconclusive";

export interface ProbeResult {
  id: string;
  status: ProbeStatus;
  question: string;
  expected: string | null;
  answer: string;
  /** Message ids in the active context where the answer stands (literal reader), or the fact's source. */
  evidence: string[];
  matched: string[];
  note?: string;
  /** Where the answer key's facts came from in the session (message, line, span, quote). */
  sources?: FactSource[];
  /** The answer key fact by fact: its source, whether the user added it, and whether the answer met it. */
  facts?: { text: string; source?: FactSource; added?: boolean; met?: boolean }[];
  /** The user struck or added facts of this probe's key. */
  edited?: boolean;
  /** Facts the extractor is not sure of, with why: not graded until the user accepts one (struck when dismissed). */
  candidates?: { text: string; source?: FactSource; why: string; struck?: true }[];
  /** A model reader's answer, by the paper's measure: correct, "don't know", or confidently wrong. */
  verdict?: Verdict;
  /** How long the model took to answer this probe (local reader). */
  ms?: number;
}

export interface CheckrideResult {
  strategy: string;
  reader: ReaderKind;
  /** The local model that answered: name, quantization, window, runtime (shown beside the score). */
  model?: LocalModelIdentity;
  /** Model readers: graded probes by verdict. */
  verdicts?: Record<Verdict, number>;
  /** What the score means: never "model recall" for the literal reader. */
  scoreLabel: string;
  probes: ProbeResult[];
  passed: number;
  asked: number;
  /** Why this target was not graded (a summary tier with no model to write the summary). */
  needsModel?: string;
}

export interface CheckrideOptions {
  reader: ReaderKind;
  endpoint?: EndpointConfig;
  /** The loaded model for the local reader. */
  localModel?: LocalModel;
  /** Told after each probe the local model answers. */
  onLocalProgress?: (step: LocalProgress & { strategy: string }) => void;
  memory?: string;
  cwd?: string;
  /** The user's edits of the answer key (struck and added facts). */
  edits?: KeyEdits;
  /** Messages' text already prepared by an earlier checkride of the same audit (the literal reader's). */
  texts?: ContextTexts;
}

export const SCORE_LABELS = {
  literal: "facts present in context",
  endpoint: "answered correctly by the model",
  local: "answered correctly by the local model",
} as const;

export async function runCheckride(strategy: string, branch: readonly Message[], active: readonly Message[], options: CheckrideOptions, facts?: Facts): Promise<CheckrideResult> {
  const probes = buildProbes(facts ?? extractFacts(branch, { cwd: options.cwd, memory: options.memory })).map((probe) => applyKeyEdits(probe, options.edits));
  let answers: ReaderAnswers;
  let timings: Record<string, number> = {};
  if (options.reader === "endpoint") {
    if (!options.endpoint) throw new Error("the endpoint reader needs an endpoint URL and a model");
    answers = await endpointReader(probes, contextText(active), options.endpoint);
  } else if (options.reader === "local") {
    if (!options.localModel) throw new Error("the local reader needs a model file (.gguf)");
    ({ answers, timings } = await localModelReader(probes, contextText(active), options.localModel, (step) => options.onLocalProgress?.({ ...step, strategy })));
  } else {
    answers = literalReader(probes, ContextIndex.ofMessages(active, options.texts));
  }
  const results: ProbeResult[] = probes.map((probe) => {
    const keyFacts = probe.facts.map((f) => ({ text: f.text, ...(f.source ? { source: f.source } : {}), ...(f.added ? { added: true } : {}) }));
    const base = {
      id: probe.id,
      question: probe.question,
      expected: probe.expected,
      ...(probe.sources?.length ? { sources: probe.sources } : {}),
      facts: keyFacts,
      ...(probe.edited ? { edited: true } : {}),
      ...(probe.candidates?.length ? { candidates: probe.candidates } : {}),
    };
    if (probe.expected === null) return { ...base, status: "skipped", answer: "", evidence: [], matched: [], note: probe.skipReason };
    const answer = answers[probe.id] ?? { answer: "", evidence: [], inconclusive: "the reader gave no answer" };
    if (answer.inconclusive) return { ...base, status: "inconclusive", answer: answer.answer, evidence: [], matched: [], note: answer.inconclusive };
    const grade = probe.grade(answer.answer);
    const facts = probe.facts.map((f, i) => ({ ...keyFacts[i]!, met: factMet(f, grade.matched) }));
    const model = options.reader === "literal" ? {} : { verdict: verdictOf(grade.pass, answer.answer), ...(probe.id in timings ? { ms: timings[probe.id] } : {}) };
    return { ...base, facts, status: grade.pass ? "pass" : "fail", answer: answer.answer, evidence: answer.evidence, matched: grade.matched, ...model };
  });
  const passed = results.filter((r) => r.status === "pass").length;
  const asked = results.filter((r) => r.status === "pass" || r.status === "fail").length;
  return {
    strategy,
    reader: options.reader,
    ...(options.reader === "local" && options.localModel ? { model: options.localModel.identity } : {}),
    ...(options.reader === "literal" ? {} : { verdicts: verdictCounts(results.map((r) => r.verdict)) }),
    scoreLabel: SCORE_LABELS[options.reader],
    probes: results,
    passed,
    asked,
  };
}
