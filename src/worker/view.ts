/**
 * A view: one checkpoint of one branch, with the two pane models the screen
 * draws and their alignment. Built here for a load and for every recompaction.
 */
import type { Checkpoint } from "../../core/checkpoint.ts";
import { compactSession } from "../../core/compact.ts";
import type { EndpointConfig } from "../../core/endpoint.ts";
import type { Session } from "../../core/model.ts";
import type { TransparentGrowth } from "../../core/strategies/transparent-growth.ts";
import { alignPanes, type AlignmentBefore } from "./alignment.ts";
import type { FollowedPanes, View } from "./screen.ts";
import { budgetedTokens } from "./services/tokens.ts";
import { grownPaneModel } from "./pane-growth.ts";
import { paneGeometry, type PaneModel } from "./projection.ts";
import type { CompactParams, SessionSummary, ViewSummary } from "./protocol.ts";
import { decorateView } from "./services/audit.ts";

// The types of what the worker holds live in screen.ts (the services import them without importing this module).
export type { LoadedSession, Screen, View, ViewAudit } from "./screen.ts";

/** What this look's alignment may take from the last look's: the rows both panes grew from it with. */
function alignmentBefore(previous: FollowedPanes | undefined, original: PaneModel, active: PaneModel): AlignmentBefore | undefined {
  if (!previous || !original.grownFrom || !active.grownFrom) return undefined;
  return {
    alignment: previous,
    originalRows: original.grownFrom.kept,
    activeRows: active.grownFrom.kept,
    originalIdsDistinct: original.distinctIds,
  };
}

export interface BuildViewRequest {
  id: number;
  params: CompactParams;
  previous?: Checkpoint;
  round: number;
  /** The branch's pane model when the caller already built it (a load's preview). */
  originalModel?: PaneModel;
  summaryEndpoint?: EndpointConfig;
  /** A followed session's growing transparent view (see CompactRequest.growth). */
  growth?: TransparentGrowth;
  /** The pane models and alignment of the view a followed file's last look made, which this one's go on from (the models give up their maps: pane-growth.ts). */
  previousPanes?: FollowedPanes;
}

export async function buildView(session: Session, source: Pick<SessionSummary, "name" | "bytes" | "sha256">, request: BuildViewRequest): Promise<View> {
  const started = performance.now();
  const { params, previous, round } = request;
  const checkpoint = await compactSession(
    session,
    { name: source.name, bytes: source.bytes, sha256: source.sha256 },
    { strategy: params.strategy, options: params.options, leafId: params.leafId, previous, endpoint: request.summaryEndpoint, growth: request.growth },
  );
  const original = request.originalModel ?? grownPaneModel(request.previousPanes?.original, session.branch(params.leafId));
  const active = grownPaneModel(request.previousPanes?.active, checkpoint.active);
  const alignment = alignPanes(original.messages, active.messages, original.indexById, alignmentBefore(request.previousPanes, original, active));
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
