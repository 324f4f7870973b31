/**
 * Follow, in the session's action bar: start following the file on screen
 * (asking for it through the browser's picker where it was opened another
 * way), pause, resume, stop; while following, what the last look found.
 */
import { followability, pauseFollow, resumeFollow, startFollow, stopFollow, useApp, useFollow } from "../../store/store.ts";
import { formatBytes, formatSeconds } from "../format.ts";

const UNSUPPORTED =
  "This browser cannot read a file again once it is opened (it has no File System Access API). Follow the file in Chrome or Edge, or in a terminal: session-inspector audit FILE --follow";

export function FollowControls({ disabled }: { disabled: boolean }) {
  const lastSource = useApp((s) => s.lastSource);
  const status = useFollow((s) => s.status);
  const hidden = useFollow((s) => s.hidden);
  const lastGrowth = useFollow((s) => s.lastGrowth);
  const updates = useFollow((s) => s.updates);
  const how = followability(lastSource);

  if (status === "off")
    return (
      <button
        type="button"
        className="small"
        disabled={disabled || how === "unsupported"}
        onClick={() => void startFollow()}
        data-testid="follow-start"
        title={
          how === "unsupported"
            ? UNSUPPORTED
            : how === "pick"
              ? "Follow the file while the agent writes it: choose the same file again so the browser lets this page read it as it grows"
              : "Follow the file while the agent writes it: new messages and compactions appear as they are written"
        }
      >
        {how === "pick" ? "Follow…" : "Follow"}
      </button>
    );

  const state = status === "paused" ? "paused" : hidden ? "waiting: the tab is hidden" : "following";
  const grown = lastGrowth
    ? ` · grew ${updates}× · last +${formatBytes(lastGrowth.addedBytes)} (read ${formatSeconds(lastGrowth.readMs)}, view ${formatSeconds(lastGrowth.rebuildMs)})`
    : "";
  return (
    <span className="follow-controls" role="group" aria-label="Following the file" data-testid="follow-controls">
      <span className={`follow-state ${status}`} role="status" data-testid="follow-state" title={`Reads only what the file gained, every second while this tab is shown${grown}`}>
        <span className="follow-dot" aria-hidden="true" />
        {state}
        {lastGrowth ? <span className="dim"> · {formatBytes(lastGrowth.bytes)}</span> : null}
      </span>
      {status === "paused" ? (
        <button type="button" className="small" onClick={resumeFollow} data-testid="follow-resume">
          Resume
        </button>
      ) : (
        <button type="button" className="small" onClick={pauseFollow} data-testid="follow-pause">
          Pause
        </button>
      )}
      <button type="button" className="small" onClick={() => stopFollow()} data-testid="follow-stop" title="Stop following; the session stays on screen as it was last read">
        Stop
      </button>
    </span>
  );
}
