/** What to do with the session on screen: recover the selected message, test it, share it, present it, export it. Sits in the title bar to keep the header short. */
import { download } from "../download.ts";
import { FollowControls } from "../follow/FollowControls.tsx";
import { exportCheckpoint, openShare, recoverSelected, setCheckride, setPresenting, useApp } from "../../store/store.ts";

export function SessionActions() {
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const busy = useApp((s) => s.busy);
  const checkrideOpen = useApp((s) => s.checkride.open);
  const disabled = !session || busy !== null || !view || view.pending === true;
  // Auditing a recorded compaction the panes show the agent's own contexts, not a checkpoint of ours.
  const auditing = view?.audit !== undefined && view.audit !== null;
  if (!session) return null;
  return (
    <div className="session-actions" role="toolbar" aria-label="Session actions">
      <FollowControls disabled={disabled} />
      <button type="button" className="small" disabled={disabled} onClick={() => void recoverSelected()} title="Recover every payload of the selected message (Enter)">
        Recover in message
      </button>
      <button
        type="button"
        className="small"
        disabled={disabled}
        onClick={() => setCheckride({ open: !checkrideOpen })}
        aria-pressed={checkrideOpen}
        data-testid="checkride-toggle"
      >
        Checkride
      </button>
      <button
        type="button"
        className="small"
        disabled={disabled}
        onClick={() => void openShare()}
        data-testid="share-toggle"
        title="Scan for secrets, then download the audit report, the scorecard or a masked checkpoint"
      >
        Share…
      </button>
      <button
        type="button"
        className="small"
        disabled={disabled}
        onClick={() => setPresenting(true)}
        data-testid="present-toggle"
        title="Large type, the two panes and the score only; arrow keys step through omissions"
      >
        Present
      </button>
      <button
        type="button"
        className="small"
        disabled={disabled || auditing}
        onClick={async () => download(await exportCheckpoint())}
        title={
          auditing
            ? "A checkpoint is a strategy's result: choose Strategies on the timeline to export one."
            : "Download the checkpoint JSON (session-inspector/checkpoint@1). It contains the original payloads."
        }
      >
        Export checkpoint
      </button>
    </div>
  );
}
