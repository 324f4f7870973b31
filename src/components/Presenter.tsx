/**
 * Presenter mode: large type, the two panes and the score only. A session
 * with recorded compactions is told as a story (presenter/Story.tsx: before →
 * after → what was lost, then the strategy comparison), ← → stepping through
 * it; without any, ← → step through the omission markers. ↓ runs the next
 * compaction round (and the checkride again), Esc leaves; "Capture PNG"
 * saves the view as a picture.
 */
import { useEffect, useState } from "react";
import { recompact, runCheckride, setPresenting, stepStory, useApp } from "../store/store.ts";
import { Story } from "./presenter/Story.tsx";
import { captureElement } from "./capture.ts";
import { downloadName } from "../file-names.ts";
import { download } from "./download.ts";

export function PresenterBar() {
  const view = useApp((s) => s.view);
  const session = useApp((s) => s.session);
  const results = useApp((s) => s.checkride.results);
  const running = useApp((s) => s.checkride.running);
  const busy = useApp((s) => s.busy);
  const [message, setMessage] = useState<string | null>(null);
  const score = results?.find((r) => r.strategy === view?.strategy);

  useEffect(() => {
    // The score shown is computed for what is on screen, not remembered from elsewhere.
    if (view && !view.pending && !view.audit && !results && !running) void runCheckride([view.strategy]);
  }, [view, results, running]);

  const capture = async () => {
    const target = document.querySelector<HTMLElement>(".app");
    if (!target) return;
    try {
      download({ blob: await captureElement(target), name: downloadName(session?.name ?? "session", view?.strategy ?? "view", "png") });
      setMessage("Saved a PNG of this view.");
    } catch (error) {
      setMessage(`Could not capture the view: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  if (!view || !session) return null;
  if (view.audit) {
    return (
      <header className="presenter-bar story-bar" data-testid="presenter-bar">
        <div>
          <strong>{session.name}</strong> · the agent's own compactions
        </div>
        <Story />
        <div className="presenter-keys">
          <CaptureAndExit capture={capture} message={message} />
        </div>
      </header>
    );
  }
  const ratio = view.stats.originalChars ? (view.stats.activeChars / view.stats.originalChars) * 100 : 0;
  return (
    <header className="presenter-bar" data-testid="presenter-bar">
      <div>
        <strong>{session.name}</strong> · {view.strategy}
        {view.round > 0 ? ` · round ${view.round + 1}` : ""}
      </div>
      <Story />
      <div className="presenter-figures">
        <span>
          active context <strong>{ratio.toFixed(1)}%</strong> of the original
        </span>
        <span>
          <strong>{view.stats.payloads.toLocaleString("en-US")}</strong> payloads moved out, all recoverable
        </span>
        <span data-testid="presenter-score">
          checkride <strong>{score ? `${score.passed}/${score.asked}` : running ? "…" : "–"}</strong> facts present in context
        </span>
      </div>
      <div className="presenter-keys">
        <button type="button" onClick={() => stepStory(-1)} aria-label="Previous step">
          ←
        </button>
        <button type="button" onClick={() => stepStory(1)} aria-label="Next step">
          →
        </button>
        <button type="button" disabled={busy !== null} onClick={() => void recompact({ fromPrevious: true })} aria-label="Next compaction round">
          ↓ next round
        </button>
        <CaptureAndExit capture={capture} message={message} />
      </div>
    </header>
  );
}

/** The two buttons every presenter bar ends with, and what the last capture said. */
function CaptureAndExit({ capture, message }: { capture: () => Promise<void>; message: string | null }) {
  return (
    <>
      <button type="button" onClick={() => void capture()}>
        Capture PNG
      </button>
      <button type="button" onClick={() => setPresenting(false)}>
        Exit (Esc)
      </button>
      {message ? (
        <span className="small-text" role="status">
          {message}
        </span>
      ) : null}
    </>
  );
}
