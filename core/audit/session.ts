/**
 * Every recorded compaction of a session's branch, audited at its moment;
 * and, for a timeline, the cheap marks (no checkride, no hashing).
 */
import type { CompactionKind, Message, Session } from "../model.ts";
import { sessionCwd } from "../session-info.ts";
import { auditCompaction, branchUpTo, transparentView, type AuditOptions, type CompactionAudit, type SharedWork } from "./moment.ts";
import { contextSize, sizeTokenizer } from "./size.ts";
import { loadTokenizer } from "../tokens.ts";
import { delegatedWork, headerIds } from "../checkride/session.ts";
import { ContextTexts } from "../checkride/context-index.ts";

export interface SessionAudit {
  leafId: string | null;
  compactions: CompactionAudit[];
}

/** The options every audit of this session shares; loads the tokenizer so sizes are counts, not estimates. */
async function resolveOptions(session: Session, options: Partial<AuditOptions>): Promise<AuditOptions> {
  if (!options.sizeTokenizer) await loadTokenizer();
  return {
    reader: options.reader ?? "literal",
    endpoint: options.endpoint,
    localModel: options.localModel,
    memory: options.memory,
    cwd: options.cwd ?? sessionCwd(session),
    format: session.format,
    sessionIds: options.sessionIds ?? headerIds(session.header),
    delegated: options.delegated ?? delegatedWork(session),
    sizeTokenizer: options.sizeTokenizer,
  };
}

/**
 * `only`: the indexes of the compactions to audit (the library re-opening a grown session
 * audits only those whose inputs changed); default every one.
 */
export async function auditSession(session: Session, options: Partial<AuditOptions> & { leafId?: string | null; only?: ReadonlySet<number> } = {}): Promise<SessionAudit> {
  const leafId = options.leafId ?? session.defaultLeafId;
  const only = options.only;
  const compactions = session.recordedCompactions(leafId).filter((compaction) => !only || only.has(compaction.index));
  if (compactions.length === 0) return { leafId, compactions: [] };
  const branch = session.branch(leafId);
  const resolved = await resolveOptions(session, options);
  // Transparent reads each message on its own, so the view of the branch up to the last compaction
  // is all any compaction reads of it (see SharedWork.transparent); what follows it is never read.
  const lastMoment = Math.max(...compactions.map((compaction) => branchUpTo(branch, compaction).length));
  const transparent = await transparentView(branch.slice(0, lastMoment), resolved.cwd);
  const shared: SharedWork = { original: new Map<string, Message>(branch.map((m) => [m.id, m])), transparent, texts: new ContextTexts() };
  const out: CompactionAudit[] = [];
  for (const compaction of compactions) out.push(await auditCompaction(compaction, branch, resolved, shared));
  return { leafId, compactions: out };
}

/** The audit of compaction #index alone (the app audits the one the user clicks); null when there is no such compaction. */
export async function auditOneCompaction(session: Session, index: number, options: Partial<AuditOptions> & { leafId?: string | null } = {}): Promise<CompactionAudit | null> {
  const leafId = options.leafId ?? session.defaultLeafId;
  const compaction = session.recordedCompactions(leafId).find((c) => c.index === index);
  if (!compaction) return null;
  const resolved = await resolveOptions(session, options);
  return auditCompaction(compaction, session.branch(leafId), resolved);
}

/** One compaction as a timeline shows it: where, what kind, the file's figures and the sizes either side. */
export interface CompactionMark {
  index: number;
  line: number;
  entryId: string;
  kind: CompactionKind;
  trigger: "auto" | "manual" | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  messagesBefore: number;
  messagesAfter: number;
  size: { unit: string; before: number; after: number };
  droppedMessageIds: string[];
}

export function compactionMarks(session: Session, leafId: string | null = null): CompactionMark[] {
  const tokenizer = sizeTokenizer();
  return session.recordedCompactions(leafId ?? session.defaultLeafId).map((c) => ({
    index: c.index,
    line: c.line,
    entryId: c.entryId,
    kind: c.kind,
    trigger: c.trigger,
    tokensBefore: c.tokensBefore,
    tokensAfter: c.tokensAfter,
    messagesBefore: c.before.length,
    messagesAfter: c.after.length,
    size: { unit: tokenizer.label, before: contextSize(c.before, session.format, tokenizer), after: contextSize(c.after, session.format, tokenizer) },
    droppedMessageIds: c.droppedMessageIds,
  }));
}
