/**
 * Composes a library folder laid out as the agents lay theirs out, from the
 * real fixtures: each copy with fresh ids (every UUID in the file replaced by
 * one derived from the copy's number, consistently, so references still hold)
 * and a varied size (JSON Lines sessions cut after a varied number of lines:
 * a prefix of a session is how the session looked earlier, compactions
 * included once the cut is past them). Deterministic for the same arguments.
 * The copies live in a temporary folder and are deleted after the bench: the
 * fixtures' text never enters the project.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

interface Source {
  name: string;
  text: string;
  jsonLines: boolean;
}

function freshUuid(copy: number, original: string): string {
  const hex = createHash("sha256").update(`${copy}:${original}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Where an agent keeps a session, for the copy numbered `copy`. */
function placeFor(dir: string, copy: number, id: string, extension: string): string {
  const day = String((copy % 28) + 1).padStart(2, "0");
  switch (dir) {
    case "claude":
      return `.claude/projects/-home-dev-project${copy % 7}/${id}.jsonl`;
    case "codex":
      return `.codex/sessions/2026/11/${day}/rollout-2026-11-${day}T10-00-00-${id}.jsonl`;
    case "pi":
      return `.pi/agent/sessions/--home-dev-project${copy % 5}--/2026-11-${day}T10-00-00_${id}.jsonl`;
    case "gemini":
      return `.gemini/tmp/project${copy % 3}/chats/session-2026-11-${day}T10-00-${id.slice(0, 8)}${extension}`;
    case "copilot":
      return `.copilot/session-state/${id}/events.jsonl`;
    default:
      return `exports/${dir}/${id}${extension}`;
  }
}

export interface GeneratedLibrary {
  sessions: number;
  bytes: number;
  files: string[];
}

/** Two copies in three are an earlier moment of their session (JSON Lines only): the share of its lines kept. */
function keptShare(source: Source, copy: number): number {
  return source.jsonLines && copy % 3 !== 0 ? 0.35 + ((copy * 37) % 66) / 100 : 1;
}

/** The copy's text: the source cut after `share` of its lines (at least 2), with fresh ids. */
function copyText(source: Source, copy: number, share: number): string {
  let text = source.text;
  if (share < 1) {
    const lines = text.split("\n");
    const keep = Math.max(2, Math.round(lines.length * share));
    text = lines.slice(0, keep).join("\n") + "\n";
  }
  const fresh = new Map<string, string>();
  return text.replace(UUID, (found) => {
    const key = found.toLowerCase();
    let id = fresh.get(key);
    if (!id) fresh.set(key, (id = freshUuid(copy, key)));
    return id;
  });
}

function readSources(fixtures: string): (Source & { dir: string })[] {
  const sources: (Source & { dir: string })[] = [];
  for (const dir of readdirSync(fixtures, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(fixtures, dir.name)).sort()) {
      if (!/\.(jsonl|json)$/.test(name)) continue;
      sources.push({ dir: dir.name, name, text: readFileSync(join(fixtures, dir.name, name), "utf8"), jsonLines: name.endsWith(".jsonl") });
    }
  }
  return sources;
}

export interface GeneratedLibrary {
  sessions: number;
  bytes: number;
  files: string[];
  /**
   * A day's work on the library: every `every`-th session among those cut to an earlier moment is
   * written again `growth` of its source's lines longer (up to the whole session), as its agent would
   * have appended them; returns the files that grew.
   */
  grow(every: number, growth: number): string[];
}

export function generateLibrary(fixtures: string, out: string, options: { sessions: number; minBytes: number }): GeneratedLibrary {
  const sources = readSources(fixtures);
  const files: string[] = [];
  const copies: { path: string; source: Source; copy: number }[] = [];
  let bytes = 0;
  for (let copy = 0; copy < options.sessions || bytes < options.minBytes; copy++) {
    const source = sources[copy % sources.length]!;
    const text = copyText(source, copy, keptShare(source, copy));
    const id = freshUuid(copy, "session");
    const path = placeFor(source.dir, copy, id, source.name.endsWith(".jsonl") ? ".jsonl" : ".json");
    mkdirSync(join(out, path, ".."), { recursive: true });
    writeFileSync(join(out, path), text);
    files.push(path);
    copies.push({ path, source, copy });
    bytes += Buffer.byteLength(text);
  }
  const grow = (every: number, growth: number): string[] => {
    const cut = copies.filter(({ source, copy }) => keptShare(source, copy) < 1);
    const grown = cut.filter((_, i) => i % every === 0);
    for (const { path, source, copy } of grown) writeFileSync(join(out, path), copyText(source, copy, Math.min(1, keptShare(source, copy) + growth)));
    return grown.map(({ path }) => path);
  };
  return { sessions: files.length, bytes, files, grow };
}
