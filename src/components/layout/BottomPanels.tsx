/**
 * The split between the panes and the panels under them (selected message,
 * checkride, share). The user sets the panels' height with the handle (drag,
 * or arrow keys when it has focus); it is remembered in localStorage. Panels
 * scroll inside that height and never push the panes further.
 */
import { useCallback, useEffect, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { useApp } from "../../store/store.ts";

const STORAGE_KEY = "session-inspector:panel-height";
const MIN_PANEL = 96;
/** Space kept for the panes whatever the user drags: a pane title and some rows. */
const MIN_PANES = 240;
const STEP = 24;

function defaultHeight(): number {
  return Math.round(Math.max(140, Math.min(320, window.innerHeight * 0.24)));
}

function readStored(): number {
  try {
    const value = Number(window.localStorage.getItem(STORAGE_KEY));
    return Number.isFinite(value) && value >= MIN_PANEL ? value : defaultHeight();
  } catch {
    return defaultHeight();
  }
}

function clampHeight(height: number): number {
  const max = Math.max(MIN_PANEL, window.innerHeight - MIN_PANES);
  return Math.round(Math.min(max, Math.max(MIN_PANEL, height)));
}

export function BottomPanels({ children }: { children: ReactNode }) {
  const [height, setHeight] = useState(() => clampHeight(readStored()));

  const commit = useCallback((next: number) => {
    const clamped = clampHeight(next);
    setHeight(clamped);
    try {
      window.localStorage.setItem(STORAGE_KEY, String(clamped));
    } catch {
      // Private mode: the height lasts for this page only.
    }
  }, []);

  useEffect(() => {
    const onResize = () => setHeight((h) => clampHeight(h));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const startY = event.clientY;
    const startHeight = height;
    const move = (e: globalThis.PointerEvent) => commit(startHeight + (startY - e.clientY));
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta: Record<string, number> = { ArrowUp: STEP, ArrowDown: -STEP, PageUp: STEP * 5, PageDown: -STEP * 5 };
    if (event.key in delta) commit(height + delta[event.key]!);
    else if (event.key === "Home") commit(MIN_PANEL);
    else if (event.key === "End") commit(window.innerHeight);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <>
      <div
        className="split-handle"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the panels under the panes (drag, or arrow keys)"
        aria-valuenow={height}
        aria-valuemin={MIN_PANEL}
        tabIndex={0}
        data-testid="split-handle"
        title="Drag to resize; ↑/↓ when focused"
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        onDoubleClick={() => commit(defaultHeight())}
      />
      <div className="bottom-panels" data-testid="bottom-panels" style={{ height }}>
        {children}
      </div>
    </>
  );
}

/** Whether a panel is open under the panes (the panes then list one line per message). */
export function usePanelsOpen(): boolean {
  return useApp((s) => !s.presenting && (s.selected !== null || s.checkride.open || s.share.open));
}
