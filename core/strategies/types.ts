import type { ArchiveEntry, Checkpoint, CheckpointStats } from "../checkpoint.ts";
import type { EndpointConfig } from "../checkride/readers.ts";
import type { Entry, FormatName, Message, RecordedContext } from "../model.ts";
import type { TransparentGrowth } from "./transparent-growth.ts";

export interface StrategyContext {
  /** An earlier checkpoint of this session, for recompaction. */
  previous?: Pick<Checkpoint, "archive" | "active">;
  /**
   * A model endpoint for the strategies with a summary slot (pi-default,
   * handoff). Not an option: options are exported, and this may carry a key.
   */
  endpoint?: EndpointConfig;
  /** The session's working directory, for normalising paths in facts. */
  cwd?: string;
  /** The session's format and the branch's entries root → leaf (for strategies that cut on entries). */
  format?: FormatName;
  path?: readonly Entry[];
  /** The context the agent itself would send now (for the `recorded` strategy). */
  recorded?: RecordedContext;
  /**
   * The transparent view made last of a session that grows (a followed file): an uncapped
   * transparent view reads only the messages after the start its branch shares with that one.
   */
  growth?: TransparentGrowth;
  /** Lenient problems worth telling the user about. */
  warn?: (message: string) => void;
}

export interface StrategyResult {
  active: Message[];
  archive: ArchiveEntry[];
  stats: CheckpointStats;
  /** Strategy-specific facts for the export (e.g. pi-default's cut). */
  details?: Record<string, unknown>;
}
