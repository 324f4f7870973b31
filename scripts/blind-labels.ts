/**
 * `npm run blind-labels -- RAW_DIR [SET]`: turns a blind labeller's working files
 * (quotes of the session's words, located by line or native id; see
 * docs/testing.md, "The blind set") into the project's label files
 * (test/labels/blind/*.json): message ids, character spans in `textOf` and
 * SHA-256 of the words, so no session text enters the repository. A quote
 * that cannot be found in the text of the message its reference names (a
 * command inside a tool call's input, say) is looked for in the branch's
 * other messages; one found nowhere is listed and left out, never guessed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { textOf, type Message } from "../core/model.ts";
import { loadSession } from "../core/session.ts";
import type { FixtureLabels, SpanLabel } from "../core/checkride/label-score.ts";
import { BLIND_FIXTURES } from "../test/helpers/fixtures.ts";

interface Ref {
  line?: number;
  id?: string;
  message?: string;
  part?: string;
  /** A message's place in a file that is one array without ids (Cline's api_conversation_history.json), and its block's. */
  index?: number;
  block?: number;
}
interface Quoted {
  ref: Ref;
  quote?: string;
  text?: string;
  note?: string;
}
interface RawLabels {
  file: string;
  cwd?: string;
  method?: string;
  rules: Quoted[];
  not_rules: Quoted[];
  anchors: Quoted[];
  not_anchors: Quoted[];
  modified_files: { ref: Ref; path: string; how?: string; note?: string }[];
  last_verify: { ref: Ref; result_ref?: Ref; command: string; outcome: "passed" | "failed"; note?: string } | null;
  unresolved_error: Quoted | null;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const root = resolve(import.meta.dirname, "..");
const rawDir = resolve(process.argv[2] ?? "../blind-labels");
// The set the labels belong to (test/helpers/labelled-set.ts, BLIND_SETS): its own folder of labels.
const setName = process.argv[3] ?? "blind-2";
const outDir = join(root, "test/labels", setName);

/** An anchor's words: `text` (rounds 1 and 2) or `quote` (round 3's brief); one with neither is refused, never hashed as "". */
function anchorText(anchor: Quoted): string {
  const words = anchor.text ?? anchor.quote;
  if (!words) throw new Error(`an anchor without its words (text or quote) at ${JSON.stringify(anchor.ref)}`);
  return words;
}

function rawFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rawFiles(path);
    return name.endsWith(".labels.json") ? [path] : [];
  });
}

mkdirSync(outDir, { recursive: true });
const unreadable: string[] = [];
for (const file of rawFiles(rawDir).sort()) {
  const raw = JSON.parse(readFileSync(file, "utf8")) as RawLabels;
  let session: ReturnType<typeof loadSession>;
  try {
    session = loadSession(readFileSync(join(BLIND_FIXTURES, raw.file)));
  } catch (error) {
    // A session the product cannot read has no messages to place the labels on: said, and left for when it can.
    unreadable.push(`${raw.file}: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  const entries = session.branchEntries(session.defaultLeafId);
  const branch: Message[] = session.branch(session.defaultLeafId);
  const texts = new Map(branch.map((m) => [m.id, textOf(m)]));
  const lost: string[] = [];

  /** The messages a reference names: its entry's (by line or native id), or the OpenCode part's own. */
  const messagesAt = (ref: Ref): Message[] => {
    // A message named by its place in the array is the one the reader numbers by it (core/formats/cline.ts: `m<index>`).
    const ids = [ref.id, ref.message, ref.index !== undefined ? `m${ref.index}` : undefined].filter((id): id is string => !!id);
    // By line: the entry's first line, or the line its messages were last written at (a Gemini CLI message
    // written again on each update keeps its entry's place and takes its last record's content and line).
    const atLine = (e: (typeof entries)[number]) => ref.line !== undefined && !ref.message && (e.line === ref.line || e.messages.some((m) => m.line === ref.line));
    const named = entries.filter((e) => atLine(e) || ids.includes(e.id)).flatMap((e) => e.messages);
    const part = ref.part ? branch.filter((m) => m.id === ref.part) : [];
    return [...part, ...named];
  };

  const span = (item: Quoted, words: string, kind: string): SpanLabel | undefined => {
    const at = (messages: Message[]) => {
      for (const m of messages) {
        const index = texts.get(m.id)?.indexOf(words) ?? -1;
        if (index >= 0) return { messageId: m.id, span: [index, index + words.length] as [number, number] };
      }
      return undefined;
    };
    const found = at(messagesAt(item.ref)) ?? at(branch);
    if (!found) {
      lost.push(`${kind} at ${JSON.stringify(item.ref)}`);
      return undefined;
    }
    return { ...found, sha256: sha256(words), ...(item.note ? { note: item.note } : {}) };
  };

  const spans = (items: Quoted[], kind: string) => items.map((item) => span(item, item.quote ?? "", kind)).filter((s): s is SpanLabel => !!s);
  const verify = raw.last_verify;
  const verifyIds = verify ? [...new Set([...messagesAt(verify.ref), ...(verify.result_ref ? messagesAt(verify.result_ref) : [])].map((m) => m.id))] : [];
  if (verify && verifyIds.length === 0) lost.push(`verify at ${JSON.stringify(verify.ref)}`);
  const error = raw.unresolved_error ? (span(raw.unresolved_error, raw.unresolved_error.quote ?? "", "error") ?? null) : null;

  const rules = spans(raw.rules, "rule");
  const notRules = spans(raw.not_rules, "not-rule");
  // Rules the labeller read in records the reader shows as no message (a queued command, say): recall counts them.
  const unlocatedRules = lost.filter((what) => what.startsWith("rule ")).length;
  const labels: FixtureLabels & { blind: true; lost?: string[] } = {
    fixture: raw.file,
    format: session.format,
    blind: true,
    method: `Labelled blind (LABELS.md and the file only, without the project's code, before the extractor was run on it): ${raw.method ?? ""}`.trim(),
    rules,
    notRules,
    anchors: raw.anchors.map((a) => ({ sha256: sha256(anchorText(a)), ...(a.note ? { note: a.note } : {}) })),
    notAnchors: raw.not_anchors.map((a) => ({ sha256: sha256(anchorText(a)), ...(a.note ? { note: a.note } : {}) })),
    // A verification the labeller found but that cannot be located is not assessed (undefined), never "none" (null).
    verify: !verify ? null : verifyIds.length ? { messageIds: verifyIds, passed: verify.outcome === "passed", ...(verify.note ? { note: verify.note } : {}) } : undefined,
    error: raw.unresolved_error && !error ? undefined : error,
    files: [...new Set(raw.modified_files.map((f) => sha256(f.path.replace(/\\/g, "/"))))],
    ...(unlocatedRules ? { unlocatedRules } : {}),
    ...(lost.length ? { lost } : {}),
  };
  const name = `${dirname(raw.file)}__${basename(raw.file)}.json`;
  writeFileSync(join(outDir, name), JSON.stringify(labels, null, 2) + "\n");
  console.log(
    `${relative(root, join(outDir, name))}: ${labels.rules.length} rules, ${labels.notRules.length} not-rules, ${labels.anchors!.length} anchors, ${labels.files!.length} files${lost.length ? `; not located: ${lost.join("; ")}` : ""}`,
  );
}
if (unreadable.length > 0) {
  console.log(`\nNot converted (the product cannot read the session; convert again once it can):`);
  for (const line of unreadable) console.log(`  ${line.slice(0, 300)}`);
}
