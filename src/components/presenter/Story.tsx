/**
 * The presenter's story of the recorded compactions, one step at a time in
 * plain words and large type: what the agent had just before compaction #N,
 * what it kept right after, what it lost. No ids, no hashes.
 */
import { storySteps, stepStory, useAudit, usePresenter, type StoryStep } from "../../store/store.ts";
import type { CompactionAuditView, TimelineMark } from "../../worker/protocol.ts";
import { formatCount } from "../format.ts";
import { kindLabel } from "../audit/labels.ts";
import { probeName, type ProbeFate } from "../../../core/audit/fact-ledger.ts";

/** A hash or an id reads as noise to an audience: counted, not shown. */
const IDENTIFIER = /\b[0-9a-f]{7,}\b|[0-9a-f]{8}-[0-9a-f]{4}-/i;

function tokensText(mark: TimelineMark, side: "before" | "after"): string {
  const file = side === "before" ? mark.tokensBefore : mark.tokensAfter;
  if (file !== null) return `${formatCount(file)} tokens by the file's own count`;
  const counted = mark.size.unit.startsWith("o200k") ? "counted by us with a standard tokenizer" : "estimated by us";
  return `about ${formatCount(mark.size[side])} tokens (${counted})`;
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** One lost fact in plain words, cut at a word so two different facts never read alike. */
function lostText(fact: ProbeFate): string {
  const text = fact.missingItems.length > 1 ? fact.missingItems.join("; ") : fact.fact;
  const cut = text.length > 160 ? `${text.slice(0, text.lastIndexOf(" ", 160) > 80 ? text.lastIndexOf(" ", 160) : 160)}…` : text;
  return `${probeName(fact.probe)}: “${cut}”`;
}

function Lost({ audit }: { audit: CompactionAuditView }) {
  const lost = audit.dropped.facts;
  const readable = lost.filter((f) => !IDENTIFIER.test(lostText(f)));
  const identifiers = lost.length - readable.length;
  const { facts } = audit;
  const humans = audit.dropped.humanMessages.length;
  const tools = audit.dropped.toolOutputs.length;
  const shown = readable.slice(0, 4);
  return (
    <>
      <p>
        {facts.asked === 0 ? (
          "No facts could be checked at this moment."
        ) : (
          <>
            <strong>
              {formatCount(facts.kept)} of {formatCount(facts.asked)}
            </strong>{" "}
            facts were still in the context right after; {plural(facts.fellOut, "fell out here", "fell out here")}
            {facts.goneBefore ? `, ${plural(facts.goneBefore, "was", "were")} already gone before` : ""} (transparent compaction would have kept {formatCount(facts.transparent)}).
          </>
        )}
      </p>
      {shown.length > 0 ? (
        <ul className="story-facts">
          {shown.map((f) => (
            <li key={f.probe}>Lost: {lostText(f)}</li>
          ))}
          {readable.length > shown.length ? <li>and {plural(readable.length - shown.length, "more fact", "more facts")}</li> : null}
        </ul>
      ) : null}
      {identifiers > 0 ? <p>{plural(identifiers, "fact made of identifiers (commits, ids) was", "facts made of identifiers (commits, ids) were")} lost too.</p> : null}
      <p>
        {humans > 0
          ? `${plural(humans, "message from the human survives", "messages from the human survive")} only as a summary or not at all. `
          : "Every message from the human is still there. "}
        {tools > 0 ? `${plural(tools, "tool output was", "tool outputs were")} dropped; each is still in the original file.` : ""}
      </p>
    </>
  );
}

function Body({ step, mark }: { step: Exclude<StoryStep, { phase: "strategies" }>; mark: TimelineMark }) {
  const entry = useAudit((s) => s.audits[step.index]);
  if (step.phase === "before")
    return (
      <p>
        Just before it, the agent was sending <strong>{plural(mark.messagesBefore, "message", "messages")}</strong>: {tokensText(mark, "before")}. Left: what it had.
      </p>
    );
  if (step.phase === "after")
    return (
      <p>
        Right after, it sent <strong>{plural(mark.messagesAfter, "message", "messages")}</strong>: {tokensText(mark, "after")}.{" "}
        {mark.dropped > 0 ? `${plural(mark.dropped, "message", "messages")} left the context.` : "No message left whole; old contents were cleared."} Right: what it kept.
      </p>
    );
  if (entry?.status === "done" && entry.audit) return <Lost audit={entry.audit} />;
  return <p>{entry?.status === "error" ? "This compaction could not be checked." : "Checking what it lost…"}</p>;
}

export function Story() {
  const stepIndex = usePresenter((s) => s.step);
  const marks = useAudit((s) => s.timeline?.marks);
  const steps = storySteps();
  const step = steps[stepIndex];
  if (!step || !marks || marks.length === 0) return null;
  const mark = step.phase === "strategies" ? undefined : marks.find((m) => m.index === step.index);
  const phase = step.phase === "before" ? "before" : step.phase === "after" ? "after" : "what it lost";
  return (
    <section className="story" data-testid="presenter-story" aria-live="polite">
      <h2>{step.phase === "strategies" ? "And with a different compaction?" : `Compaction ${step.index} of ${marks.length}: ${phase}`}</h2>
      {step.phase === "strategies" ? (
        <p>The panes now compare the whole session with the strategy chosen in the toolbar; the figures above score what it keeps.</p>
      ) : mark ? (
        <>
          <p className="story-kind">
            {kindLabel(mark.kind)}
            {mark.trigger === "auto" ? ", triggered automatically" : mark.trigger === "manual" ? ", asked for by the user" : ""}
          </p>
          <Body step={step} mark={mark} />
        </>
      ) : null}
      <div className="story-nav">
        <button type="button" disabled={stepIndex === 0} onClick={() => stepStory(-1)} aria-label="Previous step">
          ← back
        </button>
        <span>
          step {stepIndex + 1} of {steps.length}
        </span>
        <button type="button" disabled={stepIndex >= steps.length - 1} onClick={() => stepStory(1)} aria-label="Next step">
          next →
        </button>
      </div>
    </section>
  );
}
