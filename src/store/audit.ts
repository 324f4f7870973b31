/**
 * The agent's own compactions: the timeline (fetched once per session and
 * branch), the audit of each compaction (its score and what it dropped,
 * fetched one after another), and switching between the audit of compaction
 * #N and the strategy comparison. A store of its own beside the app's.
 */
import { create } from "zustand";
import type { CompactionAuditView, TimelineData } from "../worker/protocol.ts";
import { writeDeepLink } from "./deep-links.ts";
import { showView, recompact } from "./load.ts";
import { requestScroll, select } from "./navigation.ts";
import { client, get, messageOf, ready, set, viewId } from "./state.ts";

export type AuditEntry = { status: "loading" } | { status: "done"; audit: CompactionAuditView | null } | { status: "error"; message: string };

export interface AuditState {
  /** Which session, revision and branch the timeline is of ("serial.revision:leaf"). */
  key: string | null;
  timeline: TimelineData | null;
  error: string | null;
  audits: Record<number, AuditEntry>;
  /** Compaction being opened (its view is being built). */
  opening: number | null;
}

export const useAudit = create<AuditState>(() => ({ key: null, timeline: null, error: null, audits: {}, opening: null }));

function keyOfScreen(): string | null {
  const { view, sessionSerial, sessionRevision } = get();
  return view && !view.pending ? `${sessionSerial}.${sessionRevision}:${view.leafId ?? ""}` : null;
}

/** The key without the revision: the same session and branch, perhaps grown. */
const sessionPart = (key: string | null) => key?.replace(/\.\d+:/, ":") ?? null;

/** The timeline of the session on screen, then each compaction's audit. */
export async function loadTimeline(): Promise<void> {
  const key = keyOfScreen();
  const before = useAudit.getState();
  if (!key || before.key === key) return;
  // A followed file that grew: the timeline on screen stays until the new one comes, and the audits of
  // compactions already recorded stay (what a compaction sent before and after does not change as the file grows).
  const grown = sessionPart(before.key) === sessionPart(key);
  useAudit.setState({ key, timeline: grown ? before.timeline : null, error: null, audits: grown ? before.audits : {}, opening: null });
  try {
    const timeline = await client().request({ type: "timeline", view: viewId() }).promise;
    if (useAudit.getState().key !== key) return;
    useAudit.setState({ timeline });
    await loadScores(key, timeline);
  } catch (error) {
    if (useAudit.getState().key === key) useAudit.setState({ error: messageOf(error) });
  }
}

/** Each compaction's audit in turn (the score on its mark, the dropped panel). */
async function loadScores(key: string, timeline: TimelineData): Promise<void> {
  for (const mark of [...timeline.marks].reverse()) {
    if (useAudit.getState().key !== key) return;
    await fetchAudit(mark.index);
  }
}

export async function fetchAudit(index: number): Promise<void> {
  const key = useAudit.getState().key;
  const existing = useAudit.getState().audits[index];
  if (existing && existing.status !== "error") return;
  const put = (entry: AuditEntry) => useAudit.getState().key === key && useAudit.setState((s) => ({ audits: { ...s.audits, [index]: entry } }));
  put({ status: "loading" });
  try {
    const audit = await client().request({ type: "compactionAudit", view: viewId(), index }).promise;
    put({ status: "done", audit });
  } catch (error) {
    put({ status: "error", message: messageOf(error) });
  }
}

/** Compaction #index in the panes: before on the left, after on the right. */
export async function openAudit(index: number): Promise<void> {
  if (!ready()) return;
  useAudit.setState({ opening: index });
  try {
    const view = await client().request({ type: "auditView", view: viewId(), index }).promise;
    set({ ...showView(view) });
    writeDeepLink();
    void fetchAudit(index);
  } catch (error) {
    set({ loadError: { name: get().session?.name ?? "", message: messageOf(error) } });
  } finally {
    useAudit.setState({ opening: null });
  }
}

/** Back to the strategy comparison (the strategy last chosen). */
export function showStrategies(): Promise<void> {
  return recompact({});
}

/** "Show in the other pane": select and scroll to the row the worker named (same message, or the summary that replaced it). */
export function showInOtherPane(pane: "original" | "active", otherRow: number): void {
  const other = pane === "original" ? "active" : "original";
  if (otherRow < 0) return;
  void select({ pane: other, index: otherRow });
  requestScroll(other, otherRow);
}

/** A dropped item of the panel: the message in the original (before) pane. */
export async function showDroppedMessage(messageId: string): Promise<void> {
  if (!ready()) return;
  const { original } = await client().request({ type: "locate", view: viewId(), messageId }).promise;
  if (original >= 0) void select({ pane: "original", index: original });
}
