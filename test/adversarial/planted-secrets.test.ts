/**
 * Planted secrets the scan used to miss: env-style names ending in a secret
 * word, and short JWTs. Each is found, and neither the masked HTML report,
 * the Markdown scorecard nor a redacted checkpoint holds its value.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { scanText } from "../../core/redact.ts";
import { runCli } from "../helpers/cli.ts";

const PLANTED: Record<string, { line: string; value: string }> = {
  DB_PASSWORD: { line: "DB_PASSWORD=pg-Secret-0042", value: "pg-Secret-0042" },
  POSTGRES_PASSWORD: { line: "export POSTGRES_PASSWORD=tr0ub4dor&3", value: "tr0ub4dor&3" },
  CLIENT_SECRET: { line: "CLIENT_SECRET=cs_9f8e7d6c5b4a", value: "cs_9f8e7d6c5b4a" },
  MY_API_KEY: { line: "MY_API_KEY=k-1a2b3c4d5e6f", value: "k-1a2b3c4d5e6f" },
  "db_password (YAML)": { line: "  db_password: yaml-pass-77", value: "yaml-pass-77" },
  '"DB_PASSWORD" (JSON)': { line: '{"DB_PASSWORD": "json-pass-88"}', value: "json-pass-88" },
  "short JWT (empty payload)": {
    line: "token eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo",
    value: "eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo",
  },
  "short JWT (alg none, no signature)": { line: "cookie=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", value: "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0." },
};

describe("the scan finds env-style names and short JWTs", () => {
  it.each(Object.entries(PLANTED))("%s", (_name, { line, value }) => {
    const found: string[] = [];
    scanText(line, (_kind, v) => found.push(v));
    expect(found).toContain(value);
  });

  it("leaves ordinary words and identifiers alone", () => {
    const found: string[] = [];
    scanText("the password_reset_flow test; set SECRET_NAME in docs; eyJ is how base64 JSON starts; max_tokens: 4096; a.b.c", (_kind, v) => found.push(v));
    expect(found).toEqual([]);
  });

  it("stays linear on a long identifier with many parts", () => {
    const found: string[] = [];
    scanText(`${"a_".repeat(200_000)}x=1`, (_kind, v) => found.push(v));
    expect(found).toEqual([]);
  });
});

describe("the masked report and the redacted checkpoint hold none of them", () => {
  const temp = mkdtempSync(join(tmpdir(), "si-secrets-"));
  const file = join(temp, "planted.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 3, id: "sec-0001", timestamp: "2026-11-20T09:00:00.000Z", cwd: "/tmp/sec" })];
  let parent: string | null = null;
  Object.values(PLANTED).forEach(({ line }, i) => {
    const id = `s${String(i).padStart(7, "0")}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: "2026-11-20T09:00:10.000Z",
        message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `config:\n${line}\n` }] },
      }),
    );
    parent = id;
  });
  writeFileSync(file, lines.join("\n") + "\n");

  it.each([
    ["HTML report", ["report", file, "--strategy", "transparent"]],
    ["Markdown scorecard", ["report", file, "--strategy", "transparent", "--format", "md"]],
    ["redacted checkpoint", ["compact", file, "--redact"]],
  ])("%s", (_name, args) => {
    const out = join(temp, `${args[0]}-${args.length}.out`);
    const { status, stderr } = runCli([...args, "--output", out]);
    expect(status, stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    for (const { value } of Object.values(PLANTED)) expect(text.includes(value), value).toBe(false);
    expect(stderr).toMatch(/scan: \d+ possible secret\(s\); \d+ masked/);
  });
});

describe("a secret repeated in many messages", () => {
  it("is listed once per message without searching the list per occurrence (counted, not timed)", async () => {
    const { scanMessages } = await import("../../core/redact.ts");
    const messages = Array.from({ length: 20_000 }, (_, i) => ({
      id: `m${i}`,
      role: "user" as const,
      meta: {},
      blocks: [{ type: "text" as const, text: "DB_PASSWORD=same-value-1 and again DB_PASSWORD=same-value-1" }],
    }));
    // The old scan called messageIds.includes once per occurrence: quadratic in the messages a value is in.
    const includes = vi.spyOn(Array.prototype, "includes");
    const [finding] = scanMessages(messages);
    const calls = includes.mock.calls.length;
    includes.mockRestore();
    expect(finding!.occurrences).toBe(40_000);
    expect(finding!.messageIds).toEqual(messages.map((m) => m.id));
    expect(calls).toBeLessThan(100);
  });
});
