/**
 * What the worker holds for the screen: the loaded session, and each view
 * (one checkpoint of one branch, with the two pane models the screen draws
 * and their alignment) under the id the page names it by. Built by view.ts;
 * read by the services.
 */
import type { TransparentGrowth } from "../../core/strategies/transparent-growth.ts";
import type { ArchiveEntry, Checkpoint } from "../../core/checkpoint.ts";
import type { Session } from "../../core/model.ts";
import type { Finding } from "../../core/redact.ts";
import type { Alignment } from "./alignment.ts";
import type { FileFollower, ReadableHandle } from "./services/follow.ts";
import type { PaneModel } from "./projection.ts";
import type { DividerInfo, SessionSummary, ViewSummary } from "./protocol.ts";

export interface LoadedSession {
  session: Session;
  summary: SessionSummary;
  /** The secret scan of each branch looked at, kept for the share panel's later requests. */
  findings: Map<string | null, Finding[]>;
  /** The file as the browser lets it be read again (opened through a picker or a drop in Chromium): what Follow reads. */
  handle?: ReadableHandle;
  /** Set once the page follows the file: what has been read of it. */
  follower?: FileFollower;
  /** The last transparent view made of this session (at opening, then by each look of Follow), which the next look's view goes on from (core/strategies/transparent-growth.ts). */
  growth?: TransparentGrowth;
  /** The pane models of the strategy view Follow's last look made, which the next look's go on from (pane-growth.ts). */
  panes?: FollowedPanes;
}

/** The panes of a followed file's last look, which the next look's go on from (view.ts). */
export type FollowedPanes = Pick<View, "original" | "active" | "activeToOriginal" | "differs">;

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
