/**
 * A view: one checkpoint of one branch, with the two pane models the screen
 * draws and their alignment. Built here for a load and for every recompaction.
 */
import type { ArchiveEntry, Checkpoint } from "../../core/checkpoint.ts";
import { compactSession } from "../../core/compact.ts";
import type { EndpointConfig } from "../../core/endpoint.ts";
import type { Session } from "../../core/model.ts";
import type { Finding } from "../../core/redact.ts";
import { alignPanes, type Alignment } from "./alignment.ts";
import { budgetedTokens } from "./services/tokens.ts";
import { buildPaneModel, paneGeometry, type PaneModel } from "./projection.ts";
import type { CompactParams, DividerInfo, SessionSummary, ViewSummary } from "./protocol.ts";
import { decorateView } from "./services/audit.ts";

export interface LoadedSession {
  session: Session;
  summary: SessionSummary;
  /** The secret scan of each branch looked at, kept for the share panel's later requests. */
  findings: Map<string | null, Finding[]>;
}

export interface View extends Alignment {
  checkpoint: Checkpoint;
  round: number;
  original: PaneModel;
  active: PaneModel;
  archive: Map<string, ArchiveEntry>;
  summary: ViewSummary;
  /** What the compaction audit adds to the rows (services/audit.ts): dividers, why a row left the context. */
  audit?: ViewAudit;
}

export interface ViewAudit {
  /** Set on the audit view of compaction #index (original = before, active = after). */
  index?: number;
  /** The active row standing for what left (the summary), -1 when none. */
  summaryRow: number;
  /** Original row → the compaction recorded right before it. */
  dividers: Map<number, DividerInfo[]>;
  /** Message id → the first compaction that dropped it. */
  droppedAt: Map<string, number>;
}

/** What a view id names: the view and the session it was made from. */
export interface Screen {
  loaded: LoadedSession;
  view: View;
}

export interface BuildViewRequest {
  id: number;
  params: CompactParams;
  previous?: Checkpoint;
  round: number;
  /** The branch's pane model when the caller already built it (a load's preview). */
  originalModel?: PaneModel;
  summaryEndpoint?: EndpointConfig;
}

export async function buildView(session: Session, source: Pick<SessionSummary, "name" | "bytes" | "sha256">, request: BuildViewRequest): Promise<View> {
  const started = performance.now();
  const { params, previous, round } = request;
  const checkpoint = await compactSession(
    session,
    { name: source.name, bytes: source.bytes, sha256: source.sha256 },
    { strategy: params.strategy, options: params.options, leafId: params.leafId, previous, endpoint: request.summaryEndpoint },
  );
  const original = request.originalModel ?? buildPaneModel(session.branch(params.leafId));
  const active = buildPaneModel(checkpoint.active);
  const alignment = alignPanes(original.messages, active.messages, original.indexById);
  const summary: ViewSummary = {
    id: request.id,
    strategy: checkpoint.strategy.name,
    options: checkpoint.strategy.options,
    leafId: params.leafId,
    stats: checkpoint.stats,
    tokens: budgetedTokens(session, original.messages, checkpoint.active),
    round,
    hasPrevious: previous !== undefined,
    compactMs: 0,
    original: paneGeometry(original, null, alignment.originalToActive),
    active: paneGeometry(active, alignment.differs, alignment.activeToOriginal),
  };
  summary.compactMs = Math.round(performance.now() - started);
  const view: View = { checkpoint, round, original, active, archive: new Map(checkpoint.archive.map((entry) => [entry.id, entry])), ...alignment, summary };
  decorateView(session.recordedCompactions(params.leafId), view);
  return view;
}
