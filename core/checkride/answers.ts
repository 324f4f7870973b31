/** What a checkride reader answers with, whichever reader it is (readers.ts lists them). */
import type { ProbeId } from "./probes.ts";

export interface ReaderAnswer {
  answer: string;
  /** Message ids where the quoted text stands. */
  evidence: string[];
  /** Set when the reader could not answer (endpoint errors): the probe is inconclusive. */
  inconclusive?: string;
}

export type ReaderAnswers = Partial<Record<ProbeId, ReaderAnswer>>;
