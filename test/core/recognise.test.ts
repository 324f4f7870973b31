/**
 * Detection never guesses: every fixture (real and composed) is accepted by
 * exactly one recogniser, the one of its folder's format; unknown and
 * ambiguous shapes are refused naming what was found and what was tried;
 * --format forces a reader.
 */
import { describe, expect, it } from "vitest";
import { parseJsonLines } from "../../core/jsonl.ts";
import type { FormatName } from "../../core/model.ts";
import { JSON_LINES_RECOGNISERS, JSON_VALUE_RECOGNISERS } from "../../core/formats/recognise.ts";
import { loadSession } from "../../core/session.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";
import { clineTask, geminiJsonl, openCodePruned, rooHistory } from "../helpers/composed-sessions.ts";

/** What each fixture is, from its folder (composed files by name): written here, not asked of the code. */
function formatOf(relative: string): FormatName {
  const [dir, name] = relative.split("/") as [string, string];
  if (dir === "messages") return "openai";
  if (dir !== "composed") return dir as FormatName;
  if (name.startsWith("pi-")) return "pi";
  if (name.startsWith("codex-")) return "codex";
  return name.startsWith("anthropic") ? "anthropic" : "openai";
}

/** Every recogniser of both forms, each given what it reads: the whole value, or the first records. */
function accepting(text: string): FormatName[] {
  const out: FormatName[] = [];
  let value: unknown;
  let isValue = false;
  try {
    value = JSON.parse(text);
    isValue = true;
  } catch {
    // JSON Lines
  }
  if (isValue) for (const r of JSON_VALUE_RECOGNISERS) if (r.accepts(value)) out.push(r.format);
  const records = parseJsonLines(text, false).records.slice(0, 50);
  for (const r of JSON_LINES_RECOGNISERS) if (r.accepts(records)) out.push(r.format);
  return out;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("every fixture is accepted by exactly one recogniser", () => {
  it.each(allFixtures())("%s", (relative) => {
    const text = decode(readFixture(relative));
    expect(accepting(text)).toEqual([formatOf(relative)]);
    expect(loadSession(readFixture(relative)).format).toBe(formatOf(relative));
  });

  it.each([
    ["composed Gemini JSONL", geminiJsonl(), "gemini"],
    ["composed Cline api history", decode(clineTask()[0]!.bytes), "cline"],
    ["composed Roo history", rooHistory(), "cline"],
    ["composed OpenCode export", openCodePruned(), "opencode"],
  ])("%s", (_name, text, format) => {
    expect(accepting(text)).toEqual([format]);
  });
});

describe("shapes no reader knows are refused, never read as another format", () => {
  it("a role-less message array (how a Gemini session used to be misread) names what it found and every format tried", () => {
    const error = (() => {
      try {
        loadSession('[{"type":"user","content":"hi"}]');
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(error?.message).toMatch(/unrecognised session format: found an array of 1 whose first item is an object with type "user"/);
    for (const format of ["openai", "anthropic", "cline", "gemini", "opencode"]) expect(error?.message).toContain(`${format} (`);
  });

  it("JSON Lines of an unknown agent are refused naming the first record's keys", () => {
    expect(() => loadSession('{"event":"start","at":1}\n{"event":"stop","at":2}\n')).toThrow(
      /JSON Lines whose first record is an object with keys "event", "at"; tried pi .*copilot .*gemini/,
    );
  });

  it("a file that fits two formats is refused as ambiguous, and --format chooses", () => {
    const both =
      '{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}\n{"type":"response_item","payload":{"type":"message","role":"user","content":[]}}\n';
    expect(() => loadSession(both)).toThrow(/ambiguous session: .* fits codex and claude; pass --format/);
    expect(loadSession(both, { format: "claude" }).format).toBe("claude");
    expect(loadSession(both, { format: "codex" }).format).toBe("codex");
  });

  it("--format forces a JSON reader on a value no recogniser accepts", () => {
    expect(loadSession('[{"role":"user","content":"hi"}]', { format: "anthropic" }).format).toBe("anthropic");
    expect(loadSession('[{"role":"user","content":"hi"}]', { format: "cline" }).format).toBe("cline");
  });
});

describeWithFixtures("the new formats as other machines write them", () => {
  it.each(allFixtures().filter((f) => /^(copilot|gemini|opencode)\//.test(f)))("%s with a BOM and CRLF line ends reads the same", (relative) => {
    const text = decode(readFixture(relative));
    const windows = new TextEncoder().encode(`\uFEFF${text.replace(/\n/g, "\r\n")}`);
    const plain = loadSession(readFixture(relative));
    const other = loadSession(windows);
    expect(other.format).toBe(plain.format);
    expect(other.branch(null).map((m) => m.id)).toEqual(plain.branch(null).map((m) => m.id));
    expect(other.recordedCompactions(null).map((c) => c.kind)).toEqual(plain.recordedCompactions(null).map((c) => c.kind));
  });
});
