/**
 * The first screen: while a demo session is open, one short band says so, what
 * to do next, and what the words and boxes on screen mean (one line each).
 */
import { useState } from "react";
import { DEMOS } from "../../demos.ts";
import { useApp } from "../../store/store.ts";

export function DemoIntro() {
  const name = useApp((s) => s.session?.name);
  const presenting = useApp((s) => s.presenting);
  const [dismissed, setDismissed] = useState(false);
  const demo = name ? DEMOS.find((d) => d.file.split("/").pop() === name) : undefined;
  if (!demo || dismissed || presenting) return null;
  return (
    <section className="demo-intro" data-testid="demo-intro" aria-label="About this demo">
      <div className="demo-intro-lines">
        <p>
          <strong>This is a demo session</strong> ({demo.title}). Yours: <strong>Open session…</strong> (or drop the file here) opens on the audit of the last compaction your agent
          recorded; <strong>Open folder…</strong> (e.g. ~/.claude/projects) lists every compaction in it, worst first. Everything stays in this browser.
        </p>
        <p className="dim">
          <strong>Original branch</strong> (left): the conversation as recorded. <strong>Active context</strong> (right): what the model would be sent after the chosen compaction
          strategy.
        </p>
        <p className="dim">
          <span className="legend-box" aria-hidden="true" /> <strong>Dashed boxes</strong>: content moved out of the context, kept with its hash; <em>Recover</em> brings it back
          verified. <strong>Metadata kept</strong>: fields of the original records carried over unchanged.
        </p>
      </div>
      <button type="button" className="small" onClick={() => setDismissed(true)} aria-label="Hide the demo introduction">
        Got it
      </button>
    </section>
  );
}
