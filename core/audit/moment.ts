/**
 * The audit of one recorded compaction, at its moment: the facts known then
 * (from the branch up to the compaction, never from later messages), the
 * checkride on what the agent kept (`after`), the same checkride on what the
 * transparent strategy would have kept from the same branch, both sizes, and
 * what was dropped. Plain data: it crosses to the app's main thread as is.
 */
import { ContextTexts } from "../checkride/context-index.ts";
import { extractFacts } from "../checkride/facts.ts";
import type { EndpointConfig } from "../checkride/readers.ts";
import type { LocalModel } from "../checkride/local-model/reader.ts";
import { runCheckride, type CheckrideOptions, type CheckrideResult, type ReaderKind } from "../checkride/run.ts";
import type { CompactionKind, FormatName, Message, RecordedCompaction } from "../model.ts";
import { findStrategy } from "../strategies/index.ts";
import { copiedMessages, droppedHumanMessages, droppedToolOutputs, type DroppedHumanMessage, type DroppedToolOutput } from "./dropped.ts";
import { factLedger, type ProbeFate } from "./fact-ledger.ts";
import { contextSize, sizeTokenizer } from "./size.ts";
import type { Tokenizer } from "../tokens.ts";

export interface AuditOptions {
  reader: ReaderKind;
  endpoint?: EndpointConfig;
  /** The loaded model for the local reader. */
  localModel?: LocalModel;
  memory?: string;
  cwd?: string;
  /** The session's format: which text is human (facts) and how the model reads it (sizes). */
  format: FormatName;
  /** The session's header ids, never taken for anchors. */
  sessionIds?: string[];
  /** The session's subagents' work recorded beside the branch (FactOptions.delegated). */
  delegated?: readonly Message[];
  /**
   * How sizes are counted (default: o200k when loaded). The library, whose
   * rows carry no sizes, passes the characters ÷ 4 estimate, whose label says so.
   */
  sizeTokenizer?: Tokenizer;
}

export interface CompactionAudit {
  index: number;
  line: number;
  entryId: string;
  timestamp: string | null;
  kind: CompactionKind;
  trigger: "auto" | "manual" | null;
  /** The file's own figures; null when it states none. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  summary: string | null;
  opaqueBytes: number | null;
  windowNumber: number | null;
  messagesBefore: number;
  messagesAfter: number;
  /** Messages on the original branch up to the compaction (what the facts come from). */
  branchMessages: number;
  /** Tokens of the model's view (core/audit/size.ts); `unit` is the tokenizer's label. */
  size: { unit: string; before: number; after: number; transparent: number };
  /**
   * Probes asked (with ground truth at that moment) and passed by what the
   * agent kept and by the transparent view; and, from the literal reader on
   * either side (core/audit/fact-ledger.ts), how many were kept, fell out at
   * this compaction or were already gone before it: kept + fellOut +
   * goneBefore = asked.
   */
  facts: { asked: number; recorded: number; transparent: number; kept: number; fellOut: number; goneBefore: number };
  /** Each probe's fate at this compaction (the ledger behind `facts`). */
  factFates: ProbeFate[];
  checkride: { recorded: CheckrideResult; transparent: CheckrideResult };
  /** `facts`: the probes that fell out at this compaction (the ledger's "fell-out" entries). */
  dropped: { facts: ProbeFate[]; humanMessages: DroppedHumanMessage[]; toolOutputs: DroppedToolOutput[]; messageIds: string[] };
  /** After-message id → the before-message it repeats verbatim under a new id (Codex replacement history). */
  copiedFrom: Record<string, string>;
}

/** The branch as it stood when the compaction was recorded: every message read before its line. */
export function branchUpTo(branch: readonly Message[], compaction: Pick<RecordedCompaction, "line">): Message[] {
  return branch.filter((message) => (message.line ?? 0) < compaction.line);
}

/** What the session-wide audit has already computed once and shares between compactions. */
export interface SharedWork {
  /** The branch's messages by id (tool outputs are hashed as read, even when an earlier compaction cleared them). */
  original: ReadonlyMap<string, Message>;
  /**
   * The transparent view of the whole branch. Transparent treats each message
   * on its own (a result's label reads only its earlier call), so its view of
   * the branch up to a compaction is this view's first messages: one run per
   * session instead of one per compaction (checked on every fixture in
   * test/core/audit/audit.test.ts).
   */
  transparent: readonly Message[];
  /** Messages' text as the literal reader searches it, prepared once for every checkride of the session's audit. */
  texts: ContextTexts;
}

export async function transparentView(branch: readonly Message[], cwd?: string): Promise<Message[]> {
  return (await findStrategy("transparent")!.run(branch, {}, { cwd })).active;
}

export async function auditCompaction(compaction: RecordedCompaction, branch: readonly Message[], options: AuditOptions, shared?: SharedWork): Promise<CompactionAudit> {
  const sofar = branchUpTo(branch, compaction);
  const facts = extractFacts(sofar, { cwd: options.cwd, memory: options.memory, format: options.format, sessionIds: options.sessionIds, delegated: options.delegated });
  const checkrideOptions: CheckrideOptions = {
    reader: options.reader,
    endpoint: options.endpoint,
    localModel: options.localModel,
    memory: options.memory,
    cwd: options.cwd,
    texts: shared?.texts ?? new ContextTexts(),
  };
  const transparentActive = shared ? shared.transparent.slice(0, sofar.length) : await transparentView(sofar, options.cwd);
  const recorded = await runCheckride(`recorded #${compaction.index}`, sofar, compaction.after, checkrideOptions, facts);
  const transparentRide = await runCheckride(`transparent at #${compaction.index}`, sofar, transparentActive, checkrideOptions, facts);
  // What was dropped is read by the literal reader whatever the chosen one: presence in context, deterministic.
  const literal: CheckrideOptions = { ...checkrideOptions, reader: "literal" };
  const beforeRide = await runCheckride(`before #${compaction.index}`, sofar, compaction.before, literal, facts);
  const afterRide = options.reader === "literal" ? recorded : await runCheckride(`recorded #${compaction.index}`, sofar, compaction.after, literal, facts);
  const copiedFrom = copiedMessages(compaction.before, compaction.after);
  const ledger = factLedger(beforeRide, afterRide);
  return {
    index: compaction.index,
    line: compaction.line,
    entryId: compaction.entryId,
    timestamp: compaction.timestamp ?? null,
    kind: compaction.kind,
    trigger: compaction.trigger,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    summary: compaction.summary,
    opaqueBytes: compaction.opaqueBytes ?? null,
    windowNumber: compaction.windowNumber ?? null,
    messagesBefore: compaction.before.length,
    messagesAfter: compaction.after.length,
    branchMessages: sofar.length,
    size: sizes(options, compaction.before, compaction.after, transparentActive),
    facts: { asked: recorded.asked, recorded: recorded.passed, transparent: transparentRide.passed, kept: ledger.kept, fellOut: ledger.fellOut, goneBefore: ledger.goneBefore },
    factFates: ledger.probes,
    checkride: { recorded, transparent: transparentRide },
    dropped: {
      facts: ledger.probes.filter((probe) => probe.fate === "fell-out"),
      humanMessages: droppedHumanMessages(compaction.before, compaction.after, compaction.summary !== null),
      toolOutputs: await droppedToolOutputs(compaction.before, compaction.after, shared?.original ?? new Map(branch.map((m) => [m.id, m]))),
      messageIds: compaction.droppedMessageIds,
    },
    copiedFrom,
  };
}

function sizes({ format, sizeTokenizer: chosen }: AuditOptions, before: readonly Message[], after: readonly Message[], transparent: readonly Message[]): CompactionAudit["size"] {
  const tokenizer = chosen ?? sizeTokenizer();
  return {
    unit: tokenizer.label,
    before: contextSize(before, format, tokenizer),
    after: contextSize(after, format, tokenizer),
    transparent: contextSize(transparent, format, tokenizer),
  };
}
