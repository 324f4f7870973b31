/** Plain-language descriptions of the strategies, for the picker (the core's labels and descriptions stay for the CLI). */
export interface StrategyGuide {
  /** Short enough for the picker never to cut it. */
  short: string;
  keeps: string;
  drops: string;
  practice: string;
}

export const STRATEGY_GUIDE: Record<string, StrategyGuide> = {
  transparent: {
    short: "Transparent",
    keeps: "every user and assistant message word for word",
    drops: "tool output, thinking and images, moved out behind markers that can be recovered byte for byte",
    practice: 'Woolford, "Maximising Transparency in Context Compaction…", 2026',
  },
  recorded: {
    short: "Recorded",
    keeps: "what the agent's own compactions left, as the file records them",
    drops: "whatever those compactions summarised away (listed in the archive)",
    practice: "what the agent itself sent next",
  },
  "pi-default": {
    short: "Pi default",
    keeps: "the newest ~20,000 tokens verbatim and the lists of files read and changed",
    drops: "everything older, replaced by a summary that needs a model (left empty without one)",
    practice: "Pi's own cut; the summary needs a model",
  },
  handoff: {
    short: "Hand-off",
    keeps: "the newest user messages, a staples block of facts built from the record, the current turn",
    drops: "old tool results (recoverable) and a summary slot that needs a model",
    practice: "mempact's pipeline",
  },
  brief: {
    short: "Brief",
    keeps: "the last two user turns as they were",
    drops: "everything older, condensed into a deterministic brief (goal, files, commits, preferences, a short transcript); tool output recoverable",
    practice: "in the style of pi-vcc, without a model",
  },
};

export function strategyShortLabel(name: string, fallback: string): string {
  return STRATEGY_GUIDE[name]?.short ?? fallback;
}
