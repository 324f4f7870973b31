/** The working directory a session records, wherever its format keeps it. */
import { describe, expect, it } from "vitest";
import { sessionCwd } from "../../core/session-info.ts";
import { loadSession } from "../../core/session.ts";

const lines = (...records: unknown[]) => new TextEncoder().encode(records.map((r) => JSON.stringify(r)).join("\n") + "\n");

describe("sessionCwd", () => {
  it("a Codex rollout of 2025 with a bare header: the cwd of the first turn's <environment_context>", () => {
    const session = loadSession(
      lines(
        { id: "d7e0b7f3-0000-4000-8000-000000000000", timestamp: "2025-09-24T02:40:17.546Z", instructions: null },
        { record_type: "state" },
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>\n  <cwd>E:\\ANPR\\ANPR_NEW</cwd>\n  <shell>powershell.exe</shell>\n</environment_context>" }],
        },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Schreibe alles auf Deutsch." }] },
      ),
    );
    expect(session.format).toBe("codex");
    expect(sessionCwd(session)).toBe("E:\\ANPR\\ANPR_NEW");
  });
});
