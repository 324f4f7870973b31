/**
 * What an audit report shows, computed once and rendered as HTML or as a
 * Markdown scorecard. Built from the same checkpoints and checkride the app
 * and the CLI use, so a report's numbers equal the app's for the same
 * session and strategy.
 */
import type { Checkpoint, CheckpointStats } from "../checkpoint.ts";
import type { CheckrideOptions, CheckrideResult } from "../checkride/run.ts";
import { hasEdits, type KeyEdits } from "../checkride/key-edits.ts";
import { composition, type CompositionPart } from "../composition.ts";
import { evaluateSession } from "../evaluate/evaluate.ts";
import { displayText } from "../message-text.ts";
import { loadTokenizer } from "../tokens.ts";
import type { Message, Session } from "../model.ts";
import { maskString, maskValue, masksFor, type Finding } from "../redact.ts";
import { findStrategy } from "../strategies/index.ts";
import { auditSession } from "../audit/session.ts";
import { reportCompaction, type ReportCompaction } from "./compactions.ts";

export interface ReportRow {
  id: string;
  role: string;
  text: string;
  /** Active rows: the row of the same message in the original pane, -1 when none. */
  source?: number;
}

export interface ReportStrategy {
  name: string;
  label: string;
  stats: CheckpointStats;
  /** By category of the model's view, in tokens (core/composition.ts: the app's bar uses the same). */
  composition: CompositionPart[];
  omissions: { id: string; kind: string; bytes: number; sha256: string; label: string }[];
  omissionCount: number;
}

export interface ReportData {
  source: {
    name: string;
    bytes: number;
    sha256: string;
    format: string;
    formatVersion: string | null;
    leafId: string | null;
    branchMessages: number;
    toolCalls: number;
    warnings: number;
  };
  strategies: ReportStrategy[];
  checkride: CheckrideResult[];
  /** The user's edits of the answer key, when any: the report marks them "edited by the user". */
  keyEdits?: KeyEdits;
  primary: string;
  original: ReportRow[];
  active: ReportRow[];
  redaction: { masked: number; kinds: string[] } | null;
  /** Every compaction the file records on the branch, audited at its moment (buildReport always fills it; absent, the section is left out). */
  compactions?: ReportCompaction[];
}

const ROW_TEXT_LIMIT = 4000;
const OMISSION_LIMIT = 2000;

/** A row's text in the report, cut at ROW_TEXT_LIMIT. */
export function messageText(message: Message): string {
  const text = displayText(message);
  return text.length > ROW_TEXT_LIMIT ? `${text.slice(0, ROW_TEXT_LIMIT)}\n[… ${text.length - ROW_TEXT_LIMIT} more characters in the session]` : text;
}

export async function buildReport(
  session: Session,
  file: { name: string; bytes: number; sha256: string },
  options: {
    strategies: string[];
    leafId?: string | null;
    strategyOptions?: Record<string, unknown>;
    redact?: readonly Finding[];
    memory?: string;
    edits?: KeyEdits;
    /** Who answers the checkride: the literal reader unless a model is given. */
    reader?: Pick<CheckrideOptions, "reader" | "endpoint" | "localModel">;
  },
): Promise<ReportData> {
  await loadTokenizer();
  const leafId = options.leafId ?? session.defaultLeafId;
  const branch = session.branch(leafId);
  const masks = masksFor(options.redact ?? []);
  const strategies: ReportStrategy[] = [];
  const checkride: CheckrideResult[] = [];
  let primaryActive: Message[] = [];
  for (const name of options.strategies) if (!findStrategy(name)) throw new Error(`unknown strategy "${name}"`);
  const evaluations = evaluateSession(session, {
    strategies: options.strategies,
    leafId,
    strategyOptions: options.strategyOptions,
    source: file,
    checkride: { reader: "literal", ...options.reader, memory: options.memory, edits: options.edits },
  });
  for await (const { strategy: name, checkpoint, results } of evaluations) {
    if (strategies.length === 0) primaryActive = checkpoint.active;
    const omissions = omissionRows(checkpoint);
    strategies.push({
      name,
      label: findStrategy(name)!.label,
      stats: checkpoint.stats,
      composition: composition(checkpoint.active, session.format),
      omissions: maskValue(omissions.slice(0, OMISSION_LIMIT), masks),
      omissionCount: omissions.length,
    });
    checkride.push(...results);
  }
  const audit = await auditSession(session, { leafId, memory: options.memory });
  const originalIndex = new Map(branch.map((m, i) => [m.id, i]));
  const rows = (messages: readonly Message[], withSource: boolean): ReportRow[] =>
    messages.map((m) => ({ id: m.id, role: m.role, text: maskString(messageText(m), masks), ...(withSource ? { source: originalIndex.get(m.id) ?? -1 } : {}) }));
  return {
    source: {
      ...file,
      name: file.name,
      format: session.format,
      formatVersion: session.formatVersion ?? null,
      leafId,
      branchMessages: branch.length,
      toolCalls: session.toolCallIds.size,
      warnings: session.warnings.length,
    },
    strategies,
    checkride: maskValue(checkride, masks),
    ...(hasEdits(options.edits) ? { keyEdits: maskValue(options.edits, masks) } : {}),
    primary: options.strategies[0]!,
    original: rows(branch, false),
    active: rows(primaryActive, true),
    compactions: maskValue(audit.compactions.map(reportCompaction), masks),
    redaction: masks.size > 0 ? { masked: masks.size, kinds: [...new Set((options.redact ?? []).map((f) => f.kind))].sort() } : null,
  };
}

/**
 * The archive's rows with each marker's label. The labels are gathered in one
 * pass over the active view: finding each entry's marker by scanning the view
 * made the report quadratic (49 s at 100 MB, killed after 600 s at 300 MB).
 */
export function omissionRows(checkpoint: Pick<Checkpoint, "active" | "archive">): ReportStrategy["omissions"] {
  const labels = markerLabels(checkpoint.active);
  return checkpoint.archive.map((e) => ({ id: e.id, kind: e.kind, bytes: e.bytes, sha256: e.sha256, label: labels.get(e.id) ?? e.kind }));
}

export function markerLabels(active: readonly Message[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const message of active) for (const block of message.blocks) if (block.type === "omitted" && !labels.has(block.recoveryId)) labels.set(block.recoveryId, block.label);
  return labels;
}
