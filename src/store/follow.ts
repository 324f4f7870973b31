/**
 * Following the session on screen while the agent writes it (issue #29). The
 * page asks the worker for a look at the file every FOLLOW_INTERVAL_MS, one
 * look at a time and never while the tab is hidden or the worker has the
 * user's work to do (a load, a compaction, a checkride); the worker reads
 * only what the file gained and makes the view again. Here the grown view
 * replaces the one on screen without moving the user: the rows already shown
 * stay while they are fetched again, and the selection, the opened payloads
 * and the find stay. A compaction the file recorded since is named in a
 * notice with the file's own figures, one click from its audit.
 */
import { create } from "zustand";
import type { FollowedCompaction, FollowResult, LoadSource } from "../worker/protocol.ts";
import { openAudit } from "./audit.ts";
import { checkrideForView } from "./checkride.ts";
import { writeDeepLink } from "./deep-links.ts";
import { compactOptions, loadSource } from "./load.ts";
import { runSearch } from "./navigation.ts";
import { client, get, messageOf, ready, set, useApp } from "./state.ts";

export const FOLLOW_INTERVAL_MS = 1000;

export type FollowStatus = "off" | "following" | "paused";

export interface FollowNotice extends FollowedCompaction {
  /** When the look that found it came back (Date.now()). */
  at: number;
}

export interface FollowState {
  status: FollowStatus;
  /** The tab is hidden: nothing is read until it is shown again. */
  hidden: boolean;
  looks: number;
  /** Looks that found the file grown (or rewritten) and made the view again. */
  updates: number;
  lastLookAt: number | null;
  lastGrowth: { at: number; bytes: number; addedBytes: number; readMs: number; rebuildMs: number } | null;
  /** Said when the file changed in a way that cannot be followed, so it was read again from its start. */
  note: string | null;
  /** Why following stopped on its own (the file went away, the look failed). */
  error: string | null;
  notices: FollowNotice[];
}

const initial: FollowState = { status: "off", hidden: false, looks: 0, updates: 0, lastLookAt: null, lastGrowth: null, note: null, error: null, notices: [] };

export const useFollow = create<FollowState>(() => initial);

interface FilePickerWindow {
  showOpenFilePicker?: (options?: { multiple?: boolean; types?: { description: string; accept: Record<string, string[]> }[] }) => Promise<FileSystemFileHandle[]>;
}

/** How the session on screen can be followed: its file handle is in hand, a picker can give one, or this browser cannot. */
export function followability(source: LoadSource | null): "ready" | "pick" | "unsupported" {
  if (source?.kind === "file" && source.handle) return "ready";
  return typeof (globalThis as FilePickerWindow).showOpenFilePicker === "function" ? "pick" : "unsupported";
}

let timer: ReturnType<typeof setTimeout> | undefined;
let looking = false;
/** Set while a change this slice makes to the session on screen is applied (it must not stop following). */
let applying = false;

function schedule(delay = FOLLOW_INTERVAL_MS): void {
  clearTimeout(timer);
  timer = setTimeout(() => void look(), delay);
}

/**
 * Starts following the session on screen. A session opened without a handle
 * (the file input, a demo) asks for the file through the browser's picker
 * first and is opened again from it.
 */
export async function startFollow(): Promise<void> {
  const how = followability(get().lastSource);
  if (how === "unsupported") {
    useFollow.setState({
      error: "This browser cannot read a file again after it was opened (no File System Access API): follow it in Chrome or Edge, or run `session-inspector audit FILE --follow`.",
    });
    return;
  }
  if (how === "pick") {
    const picker = (globalThis as FilePickerWindow).showOpenFilePicker!;
    let handle: FileSystemFileHandle | undefined;
    try {
      [handle] = await picker({ multiple: false });
    } catch {
      return; // the user closed the picker
    }
    if (!handle) return;
    await loadSource({ kind: "file", file: await handle.getFile(), handle });
    if (followability(get().lastSource) !== "ready") return;
  }
  useFollow.setState({ ...initial, status: "following", hidden: document.visibilityState === "hidden" });
  listenToVisibility();
  schedule(0);
}

export function pauseFollow(): void {
  clearTimeout(timer);
  if (useFollow.getState().status === "following") useFollow.setState({ status: "paused" });
}

export function resumeFollow(): void {
  if (useFollow.getState().status !== "paused") return;
  useFollow.setState({ status: "following", error: null });
  schedule(0);
}

export function stopFollow(error: string | null = null): void {
  clearTimeout(timer);
  useFollow.setState({ ...initial, error });
}

export function dismissFollowNotice(index: number): void {
  useFollow.setState((s) => ({ notices: s.notices.filter((n) => n.index !== index) }));
}

/** The audit of a compaction a notice names. */
export async function auditFollowed(index: number): Promise<void> {
  dismissFollowNotice(index);
  await openAudit(index);
}

let visibilityListened = false;
function listenToVisibility(): void {
  if (visibilityListened || typeof document === "undefined") return;
  visibilityListened = true;
  document.addEventListener("visibilitychange", () => {
    const hidden = document.visibilityState === "hidden";
    useFollow.setState({ hidden });
    // Shown again: look at once rather than at the next tick.
    if (!hidden && useFollow.getState().status === "following") schedule(0);
  });
}

// Another session opened: the file followed is no longer the one on screen.
useApp.subscribe((state, previous) => {
  if (!applying && state.sessionSerial !== previous.sessionSerial && useFollow.getState().status !== "off") stopFollow();
});

/** One look, then the next one scheduled; skipped (and tried again later) while the worker has the user's work. */
async function look(): Promise<void> {
  const follow = useFollow.getState();
  if (follow.status !== "following" || looking) return;
  if (follow.hidden || document.visibilityState === "hidden") return; // resumed by visibilitychange
  const app = get();
  if (!ready() || app.loading || app.busy || app.checkride.running || app.beforePreview) {
    schedule();
    return;
  }
  const view = app.view!;
  looking = true;
  try {
    const result = await client().request({
      type: "follow",
      view: view.id,
      params: { strategy: app.strategy, options: compactOptions(), leafId: app.leafId, auditIndex: view.audit?.index ?? null },
    }).promise;
    if (useFollow.getState().status === "off") return;
    useFollow.setState((s) => ({ looks: s.looks + 1, lastLookAt: Date.now() }));
    // The user changed the view meanwhile: what was read stays read; the next look shows it on their view.
    if (result.change !== "unchanged" && get().view?.id === view.id) applyGrowth(result);
  } catch (error) {
    if (useFollow.getState().status !== "off") stopFollow(`Stopped following: ${messageOf(error)}`);
    return;
  } finally {
    looking = false;
  }
  if (useFollow.getState().status === "following") schedule();
}

function applyGrowth(result: Exclude<FollowResult, { change: "unchanged" }>): void {
  const { rowCaches, view: previous, search, sessionSerial, sessionRevision } = get();
  const rewritten = result.change === "rewritten";
  applying = true;
  try {
    const { view, session } = result;
    // Grown at its end: the rows on screen are the same rows, fetched again as they are needed.
    // Rewritten: other rows, the panes start over.
    if (rewritten) {
      rowCaches.original.reset(view.id);
      rowCaches.active.reset(view.id);
    } else {
      rowCaches.original.refresh(view.id);
      rowCaches.active.refresh(view.id);
    }
    set({
      view,
      session,
      leafId: view.leafId,
      sessionRevision: sessionRevision + 1,
      ...(rewritten ? { sessionSerial: sessionSerial + 1, selected: null, detail: null, recovered: {} } : {}),
    });
    const checkride = checkrideForView(view, previous);
    set((s) => ({
      checkride: {
        ...s.checkride,
        ...checkride,
        cleared: s.checkride.results && !checkride.results ? "The file grew: the results were for the session as it stood before. Run the checkride again." : null,
      },
    }));
  } finally {
    applying = false;
  }
  const at = Date.now();
  useFollow.setState((s) => ({
    updates: s.updates + 1,
    lastGrowth: { at, bytes: result.bytes, addedBytes: result.addedBytes, readMs: result.readMs, rebuildMs: result.rebuildMs },
    note: rewritten ? `The file changed under the view (${result.why}): it was read again from its start.` : s.note,
    notices: [...s.notices, ...result.newCompactions.map((c) => ({ ...c, at }))],
  }));
  if (search) void runSearch(search.query, true);
  // The file's hash changed with it: the link names the file as it is now.
  writeDeepLink();
}
