import type { LoadSource } from "./worker/protocol.ts";

/** Demo sessions the project composes itself (public/demos/, see scripts/compose-demos.ts). */
export interface Demo {
  file: string;
  title: string;
}

export const DEMOS: readonly Demo[] = [
  { file: "demos/pi-ledger-fix.jsonl", title: "Pi: fixing a ledger export (branches, a compaction, a failing test)" },
  { file: "demos/claude-flaky-test.jsonl", title: "Claude Code: chasing a flaky test (compact boundary)" },
  { file: "demos/openai-rename.json", title: "OpenAI chat array: a small rename" },
];

/** The worker fetches the demo; the URL is made absolute here because a worker resolves relative URLs against its own script. */
export function demoSource(demo: Demo): LoadSource {
  return { kind: "url", url: new URL(demo.file, document.baseURI).href, name: demo.file.split("/").pop()! };
}
