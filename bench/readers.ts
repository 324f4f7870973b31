/**
 * Each reader's speed on its largest real fixture, next to the floor for the
 * same bytes: UTF-8 decode + JSON.parse of every line (JSON Lines), or of the
 * whole text (formats that are one JSON value). The fixtures are small (0.3 to
 * 3 MB), so each timing loads the file several times and the best of `runs`
 * rounds is kept. The shapes no real fixture has (a Cline task folder, a
 * Gemini CLI JSONL chat) are timed on generated sessions of GENERATED_MB.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadSession } from "../core/session.ts";
import { loadSessionFiles } from "../core/session-files.ts";
import { generateClineTask, generateGeminiJsonl } from "./generate-formats.ts";

const FIXTURES = process.env.SESSION_FIXTURES ? resolve(process.env.SESSION_FIXTURES) : resolve(import.meta.dirname, "../../shared/fixtures");
const REPEAT = 5;
const GENERATED_MB = 2;

function floorParse(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  // One JSON value: an array, or an object whose first line is not whole (pretty-printed).
  if (/^\s*(\[|\{\s*\n)/.test(text)) return JSON.parse(text) === null ? 0 : 1;
  let count = 0;
  for (const line of text.split("\n")) if (line.trim() !== "") (JSON.parse(line), count++);
  return count;
}

function best(runs: number, task: () => unknown): number {
  let fastest = Infinity;
  for (let round = 0; round < runs; round++) {
    const started = performance.now();
    for (let i = 0; i < REPEAT; i++) task();
    fastest = Math.min(fastest, (performance.now() - started) / REPEAT);
  }
  return fastest;
}

export function readerTable(runs: number): string[] {
  const rows = ["| reader (largest real fixture; generated where none is real) | MB | read MB/s | floor MB/s | read ÷ floor |", "|---|---|---|---|---|"];
  for (const dir of readdirSync(FIXTURES).sort()) {
    if (dir === "composed" || !statSync(join(FIXTURES, dir)).isDirectory()) continue;
    const files = readdirSync(join(FIXTURES, dir))
      .filter((f) => /\.jsonl?$/.test(f))
      .map((f) => join(FIXTURES, dir, f));
    if (files.length === 0) continue;
    const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    const bytes = readFileSync(largest);
    const format = loadSession(bytes).format;
    const floorMs = best(runs, () => floorParse(bytes));
    const readMs = best(runs, () => loadSession(bytes));
    rows.push(row(format, bytes.length, readMs, floorMs));
  }
  const task = generateClineTask(GENERATED_MB * 1e6);
  const taskBytes = task.reduce((sum, file) => sum + file.bytes.length, 0);
  rows.push(
    row(
      `${loadSessionFiles(task).format} (generated task folder)`,
      taskBytes,
      best(runs, () => loadSessionFiles(task)),
      best(runs, () => task.forEach((file) => floorParse(file.bytes))),
    ),
  );
  const gemini = generateGeminiJsonl(GENERATED_MB * 1e6);
  rows.push(
    row(
      `${loadSession(gemini).format} (generated JSONL chat)`,
      gemini.length,
      best(runs, () => loadSession(gemini)),
      best(runs, () => floorParse(gemini)),
    ),
  );
  return rows;
}

function row(reader: string, bytes: number, readMs: number, floorMs: number): string {
  const mb = bytes / 1e6;
  return `| ${reader} | ${mb.toFixed(2)} | ${(mb / (readMs / 1000)).toFixed(1)} | ${(mb / (floorMs / 1000)).toFixed(1)} | ${(readMs / floorMs).toFixed(2)}× |`;
}
