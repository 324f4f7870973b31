/**
 * Presenter mode: large type, the panes and the headline figures. With
 * recorded compactions it tells them as a story: for each compaction, what
 * the agent had before, what it kept after, what it lost; then the strategy
 * comparison. Without any, ← → step through the omission markers.
 */
import { create } from "zustand";
import { openAudit, showStrategies, useAudit } from "./audit.ts";
import { stepOmission } from "./navigation.ts";
import { get, set } from "./state.ts";

export type StoryStep = { phase: "before" | "after" | "dropped"; index: number } | { phase: "strategies" };

export const usePresenter = create<{ step: number }>(() => ({ step: 0 }));

export function setPresenting(presenting: boolean): void {
  set({ presenting, showHelp: false });
  if (presenting) usePresenter.setState({ step: 0 });
  if (presenting && storySteps().length > 0) void goToStep(0);
}

/** The story of the session on screen: three steps per recorded compaction, then the strategies. */
export function storySteps(): StoryStep[] {
  const marks = useAudit.getState().timeline?.marks ?? [];
  if (marks.length === 0) return [];
  const steps: StoryStep[] = [];
  for (const mark of marks) for (const phase of ["before", "after", "dropped"] as const) steps.push({ phase, index: mark.index });
  steps.push({ phase: "strategies" });
  return steps;
}

async function goToStep(step: number): Promise<void> {
  const target = storySteps()[step];
  if (!target) return;
  usePresenter.setState({ step });
  const auditing = get().view?.audit?.index ?? null;
  if (target.phase === "strategies") {
    if (auditing !== null) await showStrategies();
  } else if (auditing !== target.index) {
    await openAudit(target.index);
  }
}

/** → / ←: the next or previous step of the story; the omission markers where there is no story. */
export function stepStory(delta: 1 | -1): void {
  const steps = storySteps();
  if (steps.length === 0) {
    void stepOmission(delta);
    return;
  }
  const next = Math.min(steps.length - 1, Math.max(0, usePresenter.getState().step + delta));
  if (next !== usePresenter.getState().step) void goToStep(next);
}
