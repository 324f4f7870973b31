/**
 * Past V8's string limit (about 512 MB): JSON Lines stream and need no whole
 * string; one JSON value gets a clear one-line error naming the file and the
 * limit; a checkpoint is read field by field and element by element. The limit
 * is injected, so no file here is bigger than a fixture.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parseArgs } from "../../core/cli/flags.ts";
import { FileError, readSessionFile } from "../../core/cli/input.ts";
import { parseTopLevelPieces, readCheckpoint } from "../../core/cli/checkpoint-file.ts";
import { serializeCheckpoint } from "../../core/checkpoint-json.ts";
import { compactSession } from "../../core/compact.ts";
import { loadSession } from "../../core/session.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-limit-"));

describeWithFixtures("a session file past the string limit", () => {
  it("JSON Lines stream: the session is read whole without one string", () => {
    const file = fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl");
    const read = readSessionFile(parseArgs(["inspect", file]), 64 * 1024, { stringLimit: 10_000 });
    expect(read.streamed).toBe(true);
    expect(read.session.branch(null)).toEqual(loadSession(readFixture("pi/JohnnyLai92__pi-mono__6edf3497.jsonl")).branch(null));
  });

  it.each([
    ["one JSON value", "composed/openai-chat.json", [], "a file that is not JSON Lines (one JSON value) is read"],
    ["--strict", "composed/pi-v3-tree.jsonl", ["--strict"], "--strict reads the file"],
  ])("%s: a clear error naming the file and the limit", (_name, fixture, flags, what) => {
    const file = fixturePath(fixture);
    let error: unknown;
    try {
      readSessionFile(parseArgs(["inspect", file, ...flags]), 1024, { stringLimit: 100 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).file).toBe(file);
    expect((error as FileError).reason).toBe(
      `${what} as one string, and at ${readFixture(fixture).length} bytes it is past the JavaScript engine's string limit (100 characters, about 0 MB)`,
    );
  });
});

describeWithFixtures("a checkpoint past the string limit", () => {
  it.each(["pi/JohnnyLai92__pi-mono__6edf3497.jsonl", "composed/pi-v3-tree.jsonl", "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl"])(
    "%s: read in pieces, equal to the whole parse, for every strategy",
    async (fixture) => {
      const session = loadSession(readFixture(fixture));
      for (const strategy of STRATEGIES) {
        const text = serializeCheckpoint(await compactSession(session, { name: "x", bytes: 1, sha256: "0".repeat(64) }, { strategy: strategy.name }));
        const file = join(temp, `${strategy.name}.json`);
        writeFileSync(file, text);
        expect(readCheckpoint(file, 1000), strategy.name).toEqual(JSON.parse(text));
      }
    },
  );

  it("pretty-printed, with escapes and multi-byte text, equal to JSON.parse", () => {
    const value = {
      schema: "session-inspector/checkpoint@1",
      source: { name: 'a "quoted" \\ name é😀' },
      active: [],
      archive: [{ id: "x#/blocks", payload: ["]}{", '\\"', { deep: [[[1, -2.5e3, true, null]]] }] }, { id: "y" }],
      stats: { payloads: 2 },
    };
    const bytes = new TextEncoder().encode(JSON.stringify(value, null, 2));
    expect(parseTopLevelPieces(bytes, new Set(["active", "archive"]))).toEqual(value);
  });

  it("a cut or damaged checkpoint is one error naming the file", () => {
    const text = readFileSync(join(temp, "transparent.json"), "utf8");
    for (const broken of [text.slice(0, Math.floor(text.length / 2)), text.replace('"archive":[', '"archive":[}'), `${text}x`]) {
      const file = join(temp, "broken.json");
      writeFileSync(file, broken);
      expect(() => readCheckpoint(file, 1000)).toThrow(FileError);
      try {
        readCheckpoint(file, 1000);
      } catch (error) {
        expect((error as FileError).reason).toMatch(/^not a checkpoint: /);
        expect((error as FileError).reason).not.toContain("\n");
      }
    }
  });
});
