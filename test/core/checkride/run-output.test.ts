/** A shell run's output as the terminal showed it, and the files a generator says it created. */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { filesTheOutputCreated, runOutput } from "../../../core/checkride/run-output.ts";
import type { Message } from "../../../core/model.ts";

const call = (id: string, command: unknown, name = "shell"): Message => ({
  id,
  role: "assistant",
  meta: {},
  blocks: [{ type: "toolCall", id: `t${id}`, name, arguments: { command } }],
});
const result = (id: string, text: string, isError = false): Message => ({
  id: `r${id}`,
  role: "toolResult",
  meta: { toolCallId: `t${id}`, isError },
  blocks: [{ type: "text", text }],
});

describe("runOutput", () => {
  it("unwraps a Codex rollout's JSON output and drops ANSI colours", () => {
    const json = JSON.stringify({ output: "\u001b[32mCREATE\u001b[39m src/a.ts (12 bytes)\n FAIL  x.test.ts\n", metadata: { exit_code: 1 } });
    expect(runOutput(result("1", json))).toBe("CREATE src/a.ts (12 bytes)\n FAIL  x.test.ts\n");
    expect(runOutput(result("2", '{"output": broken'))).toBe('{"output": broken');
  });
});

describe("files a generator says it created", () => {
  it("Angular's and Nx's CREATE / UPDATE lines, Rails' and Yeoman's create lines, npm init's Wrote to", () => {
    const output =
      "CREATE src/app/app.ts (225 bytes)\nUPDATE angular.json (2680 bytes)\n      create  app/models/user.rb\n      create  app/views/users/\n      create  app/views/campaigns\nWrote to /w/app/package.json:\n";
    // A folder the generator made, with or without its slash, is no file.
    expect(filesTheOutputCreated(output)).toEqual(["src/app/app.ts", "angular.json", "app/models/user.rb", "/w/app/package.json"]);
    expect(filesTheOutputCreated("created 3 files\nCREATE is a SQL word")).toEqual([]);
  });

  it("shadcn's init and add: the file it writes, and the list under 'Created N files:'", () => {
    expect(filesTheOutputCreated("✔ Writing components.json.\n✔ Checking registry.")).toEqual(["components.json"]);
    expect(filesTheOutputCreated("- Updating files.\n✔ Created 2 files:\n  - components/ui/button.tsx\n  - components/ui/card.tsx\nDone.")).toEqual([
      "components/ui/button.tsx",
      "components/ui/card.tsx",
    ]);
  });

  it("are modified files of the session, in the folder the command went to, sourced to the call; a failed run's are not", () => {
    const facts = extractFacts(
      [
        call("1", ["pwsh", "-NoProfile", "-Command", "cd frontend; npx ng g c app/tray --skip-tests"]),
        result("1", JSON.stringify({ output: "\u001b[32mCREATE\u001b[39m src/app/tray/tray.ts (225 bytes)\n", metadata: { exit_code: 0 } })),
        call("2", "npx ng g c app/broken"),
        result("2", "CREATE src/app/broken/broken.ts (10 bytes)\nError: schematic failed", true),
      ],
      { cwd: "/w" },
    );
    expect(facts.modifiedFiles).toEqual(["frontend/src/app/tray/tray.ts"]);
    expect(facts.fileSources["frontend/src/app/tray/tray.ts"]).toMatchObject({ messageId: "1" });
  });
});

describe("commands that never ran, or are no commands", () => {
  it("a call the user denied (Gemini CLI's cancelled, Claude Code's rejection) checked nothing", () => {
    const denied: Message = {
      id: "r2",
      role: "toolResult",
      meta: { toolCallId: "t2", isError: true, status: "cancelled" },
      blocks: [{ type: "text", text: "[Operation Cancelled] Reason: User denied execution." }],
    };
    const facts = extractFacts([call("1", "npm test", "bash"), result("1", "Tests  3 passed (3)"), call("2", "./gradlew compileDebugKotlin", "run_shell_command"), denied]);
    expect(facts.lastRun).toMatchObject({ command: "npm test", passed: true });
    const rejected = extractFacts([
      call("1", "npm test", "bash"),
      result("1", "Tests  3 passed (3)"),
      call("3", "npm run build", "Bash"),
      result("3", "The user doesn't want to proceed with this tool use. The tool use was rejected.", true),
    ]);
    expect(rejected.lastRun).toMatchObject({ command: "npm test" });
  });

  it("Codex's apply_patch array applies a patch, and a heredoc's body holds no steps", () => {
    const patch = ["apply_patch", "*** Begin Patch\n*** Update File: README.md\n@@\n   npm run build\n*** End Patch"];
    expect(extractFacts([call("1", patch), result("1", "Done!")]).lastRun).toBeUndefined();
    expect(extractFacts([call("2", "cat > notes.md <<'EOF'\nnpm test\nEOF"), result("2", "")]).lastRun).toBeUndefined();
  });
});
