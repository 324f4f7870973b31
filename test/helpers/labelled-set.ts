/**
 * The labelled set: hand labels in test/labels/*.json scored against the
 * facts the extractor gives on each real session. Shared by the test that
 * enforces the targets and by `npm run facts`, which prints the table.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { extractFacts } from "../../core/checkride/facts.ts";
import { addScores, emptyScores, scoreFacts, type FixtureLabels, type Scores } from "../../core/checkride/label-score.ts";
import { factOptions, sessionCwd } from "../../core/checkride/session.ts";
import { textOf } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { BLIND_FIXTURES, fixturePath } from "./fixtures.ts";

export const LABELS = resolve(dirname(fileURLToPath(import.meta.url)), "../labels");
/**
 * The blind sets (issue #27): labels made without the extractor's code, before it was run on them, each
 * with the provenance of its sessions (kept in $SESSION_BLIND_FIXTURES). A set is blind until the
 * extractor is changed with its sessions read; then it stays as a regression set and a new one is the measure.
 */
export const BLIND_SETS = [
  {
    name: "blind-21",
    labels: join(LABELS, "blind-21"),
    provenance: "test/blind-21.provenance.json",
    about:
      "round 21, the measure: four sessions of Claude Code (three, one compacted) and Codex, in English, labelled blind by two reviewers once round 20 had been scored and was to be read as a dev set, committed before the extractor was changed on them; every session held out",
  },
  {
    name: "blind-20",
    labels: join(LABELS, "blind-20"),
    provenance: "test/blind-20.provenance.json",
    about:
      "round 20: five sessions of Claude Code (two, one compacted), Codex (two) and Gemini CLI, in English, labelled blind by three reviewers once round 19 had been scored and was to be read as a dev set; the measure until round 21 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-19",
    labels: join(LABELS, "blind-19"),
    provenance: "test/blind-19.provenance.json",
    about:
      "round 19: seven sessions of Claude Code (four, in English), Codex (Chinese), Pi and GitHub Copilot (Portuguese), none compacted, labelled blind by two reviewers once round 18 had been scored and was to be read as a dev set; the measure until round 20 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-18",
    labels: join(LABELS, "blind-18"),
    provenance: "test/blind-18.provenance.json",
    about:
      "round 18: seven sessions of Claude Code (four: English, and Chinese twice, three compacted), Cline (two, one compacted four times) and Codex (Japanese), labelled blind by two reviewers once round 17 had been scored and was to be read as a dev set; the measure until round 19 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-17",
    labels: join(LABELS, "blind-17"),
    provenance: "test/blind-17.provenance.json",
    about:
      "round 17: five sessions of Claude Code (four: English, Japanese, and Portuguese compacted) and Codex, labelled blind by two reviewers once round 16 had been scored and was to be read as a dev set; the measure until round 18 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-16",
    labels: join(LABELS, "blind-16"),
    provenance: "test/blind-16.provenance.json",
    about:
      "round 16: seven sessions of Claude Code (four, one compacted), Codex and OpenCode, in English, labelled blind by two reviewers once round 15 had been scored and was to be read as a dev set; the measure until round 17 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-15",
    labels: join(LABELS, "blind-15"),
    provenance: "test/blind-15.provenance.json",
    about:
      "round 15: seven sessions of Claude Code (four, each compacted), Codex and OpenCode, in English, chosen for the standing instructions their humans state (41 labelled rules), labelled blind by two reviewers once round 14 had been scored and was to be read as a dev set; the measure until round 16 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-14",
    labels: join(LABELS, "blind-14"),
    provenance: "test/blind-14.provenance.json",
    about:
      "round 14: seven sessions of Claude Code and Codex, in English (one with a Chinese request), none compacted and one labelled rule among them, labelled blind by two reviewers once round 13 had been scored and was to be read as a dev set; the measure until round 15 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-13",
    labels: join(LABELS, "blind-13"),
    provenance: "test/blind-13.provenance.json",
    about:
      "round 13: eleven sessions of Claude Code, Codex, Pi, GitHub Copilot, OpenCode and a Cline UI log, in English, Korean and Chinese, two with compactions, labelled blind by three reviewers once round 12 had been scored and was to be read as a dev set; the measure until round 14 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-12",
    labels: join(LABELS, "blind-12"),
    provenance: "test/blind-12.provenance.json",
    about:
      "round 12: twelve sessions of Claude Code, Codex, Pi, VS Code Copilot and OpenCode, four of them in Japanese and five with compactions, labelled blind by three reviewers once round 11 had been scored and was to be read as a dev set; the measure until round 13 (its totals seen once), then read as a dev set; every session held out",
  },
  {
    name: "blind-11",
    labels: join(LABELS, "blind-11"),
    provenance: "test/blind-11.provenance.json",
    about:
      "round 11: four Codex sessions in French, Korean and Chinese, labelled blind once round 10 had been scored and was to be read as a dev set; the measure until round 12 (its totals seen twice), then read as a dev set; every session held out",
  },
  {
    name: "blind-10",
    labels: join(LABELS, "blind-10"),
    provenance: "test/blind-10.provenance.json",
    about:
      "round 10: Codex, Pi, Gemini CLI and OpenCode sessions and sessions in Portuguese, Russian, Korean and Japanese, labelled blind once round 9 had been seen twice; the measure until round 11 (its totals seen twice), then read as a dev set; every session held out",
  },
  {
    name: "blind-9",
    labels: join(LABELS, "blind-9"),
    provenance: "test/blind-9.provenance.json",
    about:
      "round 9: Codex, Pi, Gemini CLI and Claude Code sessions and sessions in Korean, Chinese, Japanese and Portuguese, labelled blind after round 8 had been seen twice and round 7 read as a dev set; the measure until round 10 (its totals seen twice), then read as a dev set; every session held out",
  },
  {
    name: "blind-8",
    labels: join(LABELS, "blind-8"),
    provenance: "test/blind-8.provenance.json",
    about:
      "round 8: Codex, Pi and OpenCode sessions and sessions in Korean, German, Japanese, Portuguese and Chinese, labelled blind after round 7 had been seen five times; the measure until round 9 (its totals seen three times), then read as a dev set; every session held out",
  },
  {
    name: "blind-7",
    labels: join(LABELS, "blind-7"),
    provenance: "test/blind-7.provenance.json",
    about:
      "round 7: agents other than Claude Code and sessions in Korean, Japanese and Vietnamese, labelled blind after round 6 had been seen three times; the measure until round 8 (its totals seen nine times), then read as a dev set; every session held out",
  },
  {
    name: "blind-6",
    labels: join(LABELS, "blind-6"),
    provenance: "test/blind-6.provenance.json",
    about: "round 6: labelled blind while rounds 3 to 5 were read to change the last verification; every session held out (its totals seen after three changes, no row ever)",
  },
  {
    name: "blind-5",
    labels: join(LABELS, "blind-5"),
    provenance: "test/blind-5.provenance.json",
    about: "round 5: labelled blind after round 4's changes; read as a dev set since round 6 was asked for (its provenance split kept as labelled)",
  },
  {
    name: "blind-4",
    labels: join(LABELS, "blind-4"),
    provenance: "test/blind-4.provenance.json",
    about: "round 4: labelled blind after round 3; read as a dev set since round 6 was asked for",
  },
  {
    name: "blind-3",
    labels: join(LABELS, "blind-3"),
    provenance: "test/blind-3.provenance.json",
    about: "round 3: labelled blind after round 2's changes; read as a dev set since round 6 was asked for",
  },
  {
    name: "blind-2",
    labels: join(LABELS, "blind-2"),
    provenance: "test/blind-2.provenance.json",
    about: "round 2: labelled blind before the extractor was changed for it (its dev half read since; its held-out half still blind)",
  },
  {
    name: "blind",
    labels: join(LABELS, "blind"),
    provenance: "test/blind.provenance.json",
    about: "round 1: labelled blind, read since while the extractor was changed (a regression set now)",
  },
] as const;
export type BlindSetName = (typeof BLIND_SETS)[number]["name"];
export const BLIND_LABELS = BLIND_SETS.find((set) => set.name === "blind")!.labels;

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export function allLabels(folder = LABELS): FixtureLabels[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")) as FixtureLabels);
}

export interface FixtureResult {
  fixture: string;
  /** Why the fixture was not scored (its reader is not there yet, or the file is missing). */
  pending?: string;
  /** Labels whose span no longer holds the labelled words (the reader's text changed). */
  stale: string[];
  scores: Scores;
}

export function scoreFixture(labels: FixtureLabels, path = fixturePath(labels.fixture)): FixtureResult {
  const result: FixtureResult = { fixture: labels.fixture, stale: [], scores: emptyScores() };
  if (!existsSync(path)) return { ...result, pending: "fixture file not found" };
  let session;
  try {
    session = loadSession(readFileSync(path));
  } catch (error) {
    return { ...result, pending: `no reader yet (${(error as Error).message.slice(0, 60)})` };
  }
  if (session.format !== labels.format) return { ...result, pending: `read as ${session.format}, labelled as ${labels.format}: waits for its reader` };
  const branch = session.branch(session.defaultLeafId);
  const texts = new Map(branch.map((message) => [message.id, textOf(message)]));
  for (const label of [...labels.rules, ...labels.notRules, ...(labels.error ? [labels.error] : [])]) {
    const text = texts.get(label.messageId);
    if (text === undefined || sha256(text.slice(label.span[0], label.span[1])) !== label.sha256) result.stale.push(`${label.messageId} [${label.span}]`);
  }
  const facts = extractFacts(branch, factOptions(session, sessionCwd(session)));
  result.scores = scoreFacts(facts, labels, sha256);
  return result;
}

export function scoreLabelledSet(set: "tuned" | BlindSetName = "tuned"): { fixtures: FixtureResult[]; total: Scores } {
  const blind = BLIND_SETS.find((b) => b.name === set);
  const fixtures = blind
    ? (existsSync(blind.labels) ? allLabels(blind.labels) : []).map((labels) => scoreFixture(labels, join(BLIND_FIXTURES, labels.fixture)))
    : allLabels().map((labels) => scoreFixture(labels));
  const total = emptyScores();
  for (const fixture of fixtures) if (!fixture.pending) addScores(total, fixture.scores);
  return { fixtures, total };
}
