/**
 * The agent's own compactions on screen: the timeline's data (the file's usage
 * per turn, the compactions as drops), the audit of one compaction (facts,
 * what it dropped), and the audit view (before → original pane, after →
 * active pane). Plain data out; the pane models stay here.
 */
import { compactionsUnrecorded } from "../../../core/compactions/unrecorded.ts";
import { auditOneCompaction, compactionMarks } from "../../../core/audit/session.ts";
import { contextSize, sizeTokenizer } from "../../../core/audit/size.ts";
import { statesContext } from "../../../core/usage/summary.ts";
import type { Message, RecordedCompaction, Session } from "../../../core/model.ts";
import { DIVIDER_HEIGHT } from "../../layout/rows.ts";
import { alignPanes } from "../alignment.ts";
import { buildPaneModel, paneGeometry, projectRow } from "../projection.ts";
import { budgetedTokens } from "./tokens.ts";
import type { AuditOnView, CompactionAuditView, DividerInfo, Pane, RowProjection, TimelineData } from "../protocol.ts";
import type { Screen, View } from "../screen.ts";

export function timelineOf(screen: Screen): TimelineData {
  const { session } = screen.loaded;
  const leafId = screen.view.summary.leafId;
  const marks = compactionMarks(session, leafId);
  const series = session.usage(leafId);
  // The chart draws what the model read: turns that record only output (context 0: not stated) are left out.
  const usage = { ...series, turns: series.turns.filter(statesContext) };
  const branch = session.branch(leafId);
  const lines = branch.map((m) => m.line ?? 0).filter((l) => l > 0);
  const firstLine = lines[0] ?? 1;
  // A loop, not Math.max(...): a long session's turns would be more arguments than a call takes.
  let lastLine = lines.at(-1) ?? 1;
  for (const mark of marks) lastLine = Math.max(lastLine, mark.line);
  for (const turn of usage.turns) lastLine = Math.max(lastLine, turn.line);
  // Where the file records no usage, the model-view size either side of each compaction stands in, labelled as an estimate.
  const estimate =
    usage.turns.length > 0
      ? []
      : marks.flatMap((m) => [
          { line: m.line - 0.5, tokens: m.size.before },
          { line: m.line, tokens: m.size.after },
        ]);
  return {
    firstLine,
    lastLine,
    unit: marks[0]?.size.unit ?? sizeTokenizer().label,
    usage: { turns: usage.turns.map((t) => ({ line: t.line, tokens: t.contextTokens })), contextWindow: usage.contextWindow, notes: usage.notes },
    estimate,
    marks: marks.map(({ droppedMessageIds, ...mark }) => ({ ...mark, dropped: droppedMessageIds.length })),
    unrecorded: compactionsUnrecorded(session),
  };
}

export async function compactionAudit(screen: Screen, index: number): Promise<CompactionAuditView | null> {
  const audit = await auditOneCompaction(screen.loaded.session, index, { leafId: screen.view.summary.leafId });
  if (!audit) return null;
  const { checkride: _checkride, copiedFrom: _copied, ...rest } = audit;
  return {
    ...rest,
    dropped: { facts: rest.dropped.facts, humanMessages: rest.dropped.humanMessages, toolOutputs: rest.dropped.toolOutputs, messages: rest.dropped.messageIds.length },
  };
}

function charsOf(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.blocks).length;
  return chars;
}

/** Compaction #index as a view: the original pane is what the agent sent just before it, the active pane what it sent right after. */
export function buildAuditView(session: Session, base: View, index: number, id: number): View {
  const leafId = base.summary.leafId;
  const compactions = session.recordedCompactions(leafId);
  const compaction = compactions.find((c) => c.index === index);
  if (!compaction) throw new Error(`this branch has no recorded compaction #${index}`);
  const original = buildPaneModel(compaction.before);
  const active = buildPaneModel(compaction.after);
  const alignment = alignPanes(original.messages, active.messages, original.indexById);
  const tokenizer = sizeTokenizer();
  // "Summary of what left" only on what the file records as a summary, never on a kept message's copy.
  const summaryRow = active.messages.findIndex((m, row) => m.role === "summary" && alignment.activeToOriginal[row] === -1);
  const audit: AuditOnView = {
    index,
    count: compactions.length,
    kind: compaction.kind,
    trigger: compaction.trigger,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    summaryRow,
    dropped: compaction.droppedMessageIds.length,
  };
  const view: View = {
    ...base,
    original,
    active,
    ...alignment,
    audit: { index, summaryRow, droppedAt: new Map(), dividers: new Map() },
    summary: {
      ...base.summary,
      id,
      strategy: "recorded",
      audit,
      tokens: budgetedTokens(session, compaction.before, compaction.after),
      stats: {
        ...base.summary.stats,
        payloads: 0,
        capped: 0,
        originalChars: charsOf(compaction.before),
        activeChars: charsOf(compaction.after),
        originalTokens: contextSize(compaction.before, session.format, tokenizer),
        activeTokens: contextSize(compaction.after, session.format, tokenizer),
      },
      original: paneGeometry(original, null, alignment.originalToActive),
      active: paneGeometry(active, alignment.differs, alignment.activeToOriginal),
    },
  };
  decorateView(compactions, view);
  return view;
}

/** Dividers in the original pane at every compaction it spans (the row right after the compaction's line), with their height added. */
export function decorateView(compactions: readonly RecordedCompaction[], view: View): void {
  const dividers = new Map<number, DividerInfo[]>();
  const messages = view.original.messages;
  for (const c of compactions) {
    const row = messages.findIndex((m) => (m.line ?? 0) > c.line);
    // Only where the pane holds messages on both sides of it; compactions recorded back to back share a row.
    if (row <= 0) continue;
    const info = { index: c.index, kind: c.kind, trigger: c.trigger, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter };
    dividers.set(row, [...(dividers.get(row) ?? []), info]);
  }
  const droppedAt = new Map<string, number>();
  for (const c of compactions) for (const id of c.droppedMessageIds) if (!droppedAt.has(id)) droppedAt.set(id, c.index);
  const summaryRow = view.audit?.summaryRow ?? view.active.messages.findIndex((m) => m.role === "summary");
  view.audit = { index: view.audit?.index, summaryRow, dividers, droppedAt };
  const heights = view.summary.original.heights;
  for (const [row, list] of dividers) heights[row] = Math.min(65535, heights[row]! + list.length * DIVIDER_HEIGHT);
}

/** A row with what the audit adds: whether it left the active context (and at which compaction), its divider, its row in the other pane. */
export function decorateRow(view: View, pane: Pane, row: RowProjection): RowProjection {
  const audit = view.audit;
  if (pane === "original") {
    const aligned = view.originalToActive[row.index] ?? -1;
    const notActive = aligned < 0;
    const summaryRow = audit?.summaryRow ?? -1;
    return {
      ...row,
      dropped: notActive ? { at: audit?.index ?? audit?.droppedAt.get(row.id) ?? null } : undefined,
      dividers: audit?.dividers.get(row.index),
      otherRow: notActive ? summaryRow : aligned,
      otherIsSummary: notActive && summaryRow >= 0,
    };
  }
  return { ...row, otherRow: row.sourceRow, otherIsSummary: false, isSummary: audit?.summaryRow === row.index };
}

export function rowsWithAudit(view: View, pane: Pane, start: number, end: number): RowProjection[] {
  const model = pane === "original" ? view.original : view.active;
  const out: RowProjection[] = [];
  for (let i = Math.max(0, start); i < Math.min(end, model.messages.length); i++) {
    const base = pane === "original" ? projectRow(view.original, i, -1, false) : projectRow(view.active, i, view.activeToOriginal[i]!, view.differs[i] === 1);
    out.push(decorateRow(view, pane, base));
  }
  return out;
}
