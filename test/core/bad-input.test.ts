/**
 * Untrusted bytes: each case either loads correctly or gives a clear error
 * naming the line; none crashes.
 */
import { expect, it } from "vitest";
import { SessionError } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { splitRunTogether } from "../../core/jsonl.ts";
import { readFixture, describeWithFixtures, fixturesPresent } from "../helpers/fixtures.ts";

const enc = new TextEncoder();
// Read only where the fixtures are present: every suite that uses it is skipped otherwise.
const piText = fixturesPresent ? new TextDecoder().decode(readFixture("composed/pi-v3-tree.jsonl")) : (undefined as never);

function errorOf(input: Uint8Array | string, strict = false): SessionError {
  try {
    loadSession(input, { strict });
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
  throw new Error("expected a SessionError");
}

describeWithFixtures("bad input", () => {
  it("an empty file (or only whitespace) is a clear error", () => {
    expect(errorOf(new Uint8Array()).reason).toMatch(/empty/);
    expect(errorOf(enc.encode("\n\n  \n")).reason).toMatch(/empty/);
  });

  it("binary bytes are refused, naming the line", () => {
    const bytes = new Uint8Array([...enc.encode('{"type":"session"}\n'), 0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);
    const error = errorOf(bytes);
    expect(error.reason).toMatch(/binary/);
    expect(error.line).toBe(2);
  });

  it("invalid UTF-8 is refused, naming the line", () => {
    const bytes = new Uint8Array([...enc.encode('{"type":"session","id":"x"}\n{"a":"'), 0xc3, 0x28, ...enc.encode('"}\n')]);
    expect(errorOf(bytes).line).toBe(2);
    expect(errorOf(bytes).reason).toMatch(/UTF-8/);
  });

  it("a truncated last line: a warning in lenient mode, the named line in strict mode", () => {
    const cut = piText.slice(0, piText.length - 40);
    const lines = cut.split("\n").length;
    const session = loadSession(cut);
    expect(session.warnings).toContainEqual(expect.objectContaining({ line: lines, message: expect.stringMatching(/cut off/) }));
    expect(session.branch(null).length).toBeGreaterThan(10);
    expect(errorOf(cut, true).line).toBe(lines);
  });

  it("a BOM, CRLF line ends and no final newline load the same as the plain file", () => {
    const plain = loadSession(piText);
    const variants = ["\uFEFF" + piText, piText.replace(/\n/g, "\r\n"), piText.trimEnd()];
    for (const text of variants) {
      for (const input of [text, enc.encode(text)]) {
        const session = loadSession(input, { strict: true });
        expect(session.branch(null)).toEqual(plain.branch(null));
      }
    }
  });

  it("a 5 MB single line loads", () => {
    const big = "x".repeat(5 * 1024 * 1024);
    const text = JSON.stringify([
      { role: "user", content: big },
      { role: "assistant", content: "ok" },
    ]);
    const session = loadSession(text);
    const first = session.branch(null)[0]!.blocks[0]!;
    expect(first.type === "text" && first.text.length).toBe(big.length);
  });

  it("deeply nested JSON loads as a raw value without a stack overflow", () => {
    const depth = 50_000;
    const nested = "[".repeat(depth) + "]".repeat(depth);
    const text = `[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"x","v":${nested}}]}]`;
    const result: ReturnType<typeof loadSession> | Error = (() => {
      try {
        return loadSession(text);
      } catch (error) {
        return error as Error;
      }
    })();
    // Either it loads, or it says clearly why not; it never crashes the process.
    if (result instanceof Error) expect(result).toBeInstanceOf(SessionError);
    else expect(result.branch(null)).toHaveLength(2);
  });

  it("a line holding two JSON objects is split, with a warning", () => {
    const lines = piText.trimEnd().split("\n");
    const joined = [...lines.slice(0, 4), lines[4]! + lines[5]!, ...lines.slice(6)].join("\n");
    const session = loadSession(joined);
    expect(session.warnings).toContainEqual({ line: 5, message: "2 JSON objects on one line; split them" });
    const withoutLines = (text: string) =>
      loadSession(text)
        .branch(null)
        .map(({ line: _line, ...rest }) => rest);
    expect(withoutLines(joined)).toEqual(withoutLines(piText));
    expect(splitRunTogether('{"a":"}{"}{"b":1}')).toEqual([{ a: "}{" }, { b: 1 }]);
    expect(splitRunTogether('{"a":1} x')).toBeNull();
  });

  it("a JSON value that is neither an array nor a wrapper is a clear error", () => {
    expect(errorOf('{\n  "hello": 1\n}').reason).toMatch(/message array/);
    expect(errorOf('[{"role":"user",').reason).toMatch(/not valid JSON/);
  });

  it("JSONL of an unknown kind is a clear error suggesting --format", () => {
    expect(errorOf('{"foo":1}\n{"bar":2}\n').reason).toMatch(/unrecognised.*--format/);
  });

  it("only broken lines: a clear error naming the first", () => {
    const error = errorOf("{not json\n{also not\n");
    expect(error.line).toBe(1);
  });
});
