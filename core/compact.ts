/**
 * Session + leaf + strategy → checkpoint (the export format). Shared by the
 * worker and the CLI so both produce byte-identical checkpoints.
 */
import { CHECKPOINT_SCHEMA, type Checkpoint, type CheckpointSource } from "./checkpoint.ts";
import { tokenStats } from "./composition.ts";
import { loadTokenizer } from "./tokens.ts";
import type { Session } from "./model.ts";
import { sessionCwd } from "./session-info.ts";
import { findStrategy } from "./strategies/index.ts";
import type { StrategyContext } from "./strategies/types.ts";

export interface CompactRequest {
  strategy: string;
  options?: Record<string, unknown>;
  leafId?: string | null;
  previous?: StrategyContext["previous"];
  /** See StrategyContext.endpoint. */
  endpoint?: StrategyContext["endpoint"];
  /** See StrategyContext.growth. */
  growth?: StrategyContext["growth"];
  /** Add activeTokens/originalTokens to the stats (the CLI and the report do; the app counts lazily). */
  countTokens?: boolean;
  /** false: count without filling the per-message cache (a caller that makes one checkpoint and exits: the CLI's `compact`). */
  cacheTokenCounts?: boolean;
}

export async function compactSession(
  session: Session,
  source: Pick<CheckpointSource, "name" | "bytes" | "sha256">,
  request: CompactRequest,
  warn?: (message: string) => void,
): Promise<Checkpoint> {
  const strategy = findStrategy(request.strategy);
  if (!strategy) throw new Error(`unknown strategy "${request.strategy}"`);
  const leafId = request.leafId ?? session.defaultLeafId;
  const branch = session.branch(leafId);
  const options = request.options ?? {};
  const context: StrategyContext = { previous: request.previous, warn, format: session.format, cwd: sessionCwd(session), endpoint: request.endpoint, growth: request.growth };
  // Computed only for the strategies that read them (recorded, pi-default).
  Object.defineProperty(context, "recorded", { get: () => session.recordedContext(leafId), enumerable: true });
  Object.defineProperty(context, "path", { get: () => session.path(leafId), enumerable: true });
  const result = await strategy.run(branch, options, context);
  if (request.countTokens) await loadTokenizer();
  return {
    schema: CHECKPOINT_SCHEMA,
    source: {
      ...source,
      format: session.format,
      ...(session.formatVersion !== undefined ? { formatVersion: session.formatVersion } : {}),
      leafId,
      branchMessages: branch.length,
    },
    strategy: { name: strategy.name, options, ...result.details },
    active: result.active,
    archive: result.archive,
    stats: request.countTokens ? { ...result.stats, ...tokenStats(branch, result.active, session.format, undefined, { cache: request.cacheTokenCounts }) } : result.stats,
  };
}

/**
 * A checkpoint with the token stats the CLI's `compact` writes, for a caller
 * that made it without them (the app's worker counts lazily, and adds them
 * when it exports, so that its file and the CLI's are the same bytes).
 */
export async function withTokenStats(checkpoint: Checkpoint, session: Session): Promise<Checkpoint> {
  await loadTokenizer();
  const branch = session.branch(checkpoint.source.leafId);
  return { ...checkpoint, stats: { ...checkpoint.stats, ...tokenStats(branch, checkpoint.active, session.format) } };
}
