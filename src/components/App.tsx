/** The inspector: controls, stats, the two aligned panes and the selected message. */
import { useCallback, useEffect, useRef, useState, type DragEvent } from "react";
import { setShare, select, setPresenting, setShowHelp, useApp } from "../store/store.ts";
import type { Pane } from "../worker/protocol.ts";
import { CrashBanner, EmptyState, LoadError, LoadProgress, Warnings } from "./Banners.tsx";
import { CheckridePanel } from "./CheckridePanel.tsx";
import { DetailPanel } from "./DetailPanel.tsx";
import { PresenterBar } from "./Presenter.tsx";
import { SharePanel } from "./SharePanel.tsx";
import { FindBar } from "./FindBar.tsx";
import { HelpOverlay } from "./HelpOverlay.tsx";
import { bindingFor } from "./keymap.ts";
import { PaneView, positionOf, type PaneHandle } from "./PaneView.tsx";
import { StatsBar } from "./StatsBar.tsx";
import { CompactionTimeline } from "./audit/CompactionTimeline.tsx";
import { DroppedPanel } from "./audit/DroppedPanel.tsx";
import { Toolbar } from "./header/Toolbar.tsx";
import { SessionActions } from "./header/SessionActions.tsx";
import { FollowBanners } from "./follow/FollowBanners.tsx";
import { StrategyNote } from "./strategy/StrategyNote.tsx";
import { openDropped } from "./library/FolderButton.tsx";
import { LibraryCompactionBanner, LibraryView } from "./library/LibraryView.tsx";
import { backToLibrary, showInspector, useLibrary } from "../store/library.ts";
import { BottomPanels } from "./layout/BottomPanels.tsx";
import { DemoIntro } from "./layout/DemoIntro.tsx";

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.tagName === "INPUT" || element.tagName === "TEXTAREA" || element.tagName === "SELECT" || element.isContentEditable);
}

export function App() {
  const view = useApp((s) => s.view);
  const session = useApp((s) => s.session);
  const sessionSerial = useApp((s) => s.sessionSerial);
  const branchSerial = useApp((s) => s.branchSerial);
  const loading = useApp((s) => s.loading);
  const pendingLink = useApp((s) => s.pendingLink);
  const presenting = useApp((s) => s.presenting);
  const libraryFolder = useLibrary((s) => s.folder);
  const libraryShown = useLibrary((s) => s.folder !== null && s.screen === "library");
  const [dragging, setDragging] = useState(false);
  const [findNonce, setFindNonce] = useState(0);
  const panes = useRef<Partial<Record<Pane, PaneHandle>>>({});
  const leader = useRef<Pane>("original");
  const syncing = useRef(false);
  const lastFirstRow = useRef<Record<Pane, number>>({ original: -1, active: -1 });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        // The topmost first: help over everything, then the share panel, then the presenter, then the selection.
        const state = useApp.getState();
        if (state.showHelp) setShowHelp(false);
        else if (state.share.open) setShare({ open: false });
        else if (state.presenting) setPresenting(false);
        else void select(null);
        return;
      }
      if (isTyping(event.target)) return;
      const binding = bindingFor(event.key, useApp.getState().presenting);
      if (!binding) return;
      // Enter on a focused button means that button; only a free Enter recovers.
      if (event.key === "Enter" && (event.target as HTMLElement | null)?.tagName === "BUTTON") return;
      event.preventDefault();
      if (event.key === "/") setFindNonce((n) => n + 1);
      else binding.run?.(event.key);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const onRegister = useCallback((pane: Pane, handle: PaneHandle) => {
    panes.current[pane] = handle;
  }, []);
  /** The pane the user scrolls leads; scrolls we cause ourselves do not change the leader. */
  const onLead = useCallback((pane: Pane) => {
    if (!syncing.current) leader.current = pane;
  }, []);
  /** The other pane follows the leader to the same source message, once per change of its first row. */
  const onFirstRow = useCallback(
    (pane: Pane, row: number) => {
      const changed = lastFirstRow.current[pane] !== row;
      lastFirstRow.current[pane] = row;
      if (!changed || pane !== leader.current || syncing.current || !view) return;
      const other: Pane = pane === "original" ? "active" : "original";
      const target = panes.current[other];
      if (!target?.api) return;
      let aligned = -1;
      const map = view[pane].aligned;
      for (let i = row; i < map.length && aligned < 0 && i < row + 500; i++) aligned = map[i]!;
      if (aligned < 0) return;
      const position = positionOf(target.visible, aligned);
      const count = target.visible ? target.visible.length : view[other].count;
      if (position >= count) return;
      syncing.current = true;
      target.api.scrollToRow({ index: position, align: "start", behavior: "instant" });
      // The follower's own scroll event arrives in the next frame; ignore it, then listen again.
      requestAnimationFrame(() => requestAnimationFrame(() => (syncing.current = false)));
    },
    [view],
  );

  // Any load (a file, a demo, a row of the library) shows the inspector.
  const loadingId = loading?.id;
  useEffect(() => {
    if (loadingId !== undefined && useLibrary.getState().screen === "library") showInspector();
  }, [loadingId]);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void openDropped(event.dataTransfer);
  };

  return (
    <div
      className={`app${presenting ? " presenting" : ""}`}
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      {presenting ? <PresenterBar /> : null}
      <header className="topbar">
        <h1>
          Session Inspector
          {libraryShown ? (
            <span className="session-name"> · library</span>
          ) : session ? (
            <span className="session-name" title={session.sha256 ? `sha256 ${session.sha256}` : "sha256 being computed"}>
              {" "}
              · {session.name}
            </span>
          ) : null}
        </h1>
        {libraryFolder && !libraryShown ? (
          <button type="button" className="small" data-testid="back-to-library" onClick={backToLibrary}>
            ← Back to library
          </button>
        ) : null}
        {libraryShown ? null : <SessionActions />}
        <button type="button" className="small" onClick={() => setShowHelp(true)} aria-label="Keyboard shortcuts" data-testid="help-toggle">
          ?
        </button>
      </header>
      <Toolbar />
      <LoadProgress />
      <LoadError />
      <CrashBanner />
      <FollowBanners />
      {pendingLink?.file && !session && !loading ? (
        <div className="banner info">This link points at a session file ({pendingLink.file.slice(0, 8)}…). Drop that file again to restore the view.</div>
      ) : null}
      {/* The library is a screen of its own: the inspector's bars would describe a session it does not show. */}
      {libraryShown ? null : (
        <>
          <StrategyNote />
          <Warnings />
          <DemoIntro />
          <LibraryCompactionBanner />
          <StatsBar />
          {presenting ? null : <CompactionTimeline />}
          {presenting ? null : <DroppedPanel />}
          <FindBar focusNonce={findNonce} />
        </>
      )}
      {libraryShown ? (
        <LibraryView />
      ) : view ? (
        <main className="panes">
          {/* A new session or branch starts at the top: the panes are new. */}
          <PaneView
            key={`o-${sessionSerial}-${branchSerial}-${view.audit?.index ?? "s"}`}
            pane="original"
            view={view}
            title={view.audit ? `Before compaction #${view.audit.index}` : "Original branch"}
            onRegister={onRegister}
            onLead={onLead}
            onFirstRow={onFirstRow}
          />
          <PaneView
            key={`a-${sessionSerial}-${branchSerial}-${view.audit?.index ?? "s"}`}
            pane="active"
            view={view}
            title={view.audit ? `After compaction #${view.audit.index}` : `Active context (${view.strategy})`}
            onRegister={onRegister}
            onLead={onLead}
            onFirstRow={onFirstRow}
          />
        </main>
      ) : loading ? (
        <div className="empty-state" aria-busy="true">
          Reading the session…
        </div>
      ) : (
        <EmptyState />
      )}
      {presenting || libraryShown ? null : (
        <BottomPanels>
          <DetailPanel />
          <CheckridePanel />
          <SharePanel />
        </BottomPanels>
      )}
      <HelpOverlay />
      {dragging ? <div className="drop-overlay">Drop a session file, a session's files, or a folder of sessions</div> : null}
    </div>
  );
}
