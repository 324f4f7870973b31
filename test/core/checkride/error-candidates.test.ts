/** Failures the session may have left open: offered for the unresolved error, graded once accepted. */
import { describe, expect, it } from "vitest";
import { buildProbes } from "../../../core/checkride/probes.ts";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { applyKeyEdits } from "../../../core/checkride/key-edits.ts";
import type { Message } from "../../../core/model.ts";

const call = (id: string, name: string, args: unknown): Message => ({ id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `t${id}`, name, arguments: args }] });
const result = (id: string, text: string, isError: boolean): Message => ({
  id: `r${id}`,
  role: "toolResult",
  meta: { toolCallId: `t${id}`, isError },
  blocks: [{ type: "text", text }],
});

describe("error candidates", () => {
  const branch = [
    call("1", "bash", { command: "npm create vite@latest app" }),
    result("1", "npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/create-vite failed", true),
    call("2", "apply_patch", { input: "*** Begin Patch\n*** Update File: plan.md\n@@\n-a\n+b\n*** End Patch" }),
    result("2", "apply_patch verification failed: Failed to find expected lines in plan.md", true),
    call("3", "bash", { command: "ls docs/missing" }),
    result("3", "ls: docs/missing: No such file or directory", true),
    call("4", "bash", { command: "npm test" }),
    result("4", "Tests  3 passed (3)", false),
    call("5", "bash", { command: "npx tsc --noEmit" }),
    result("5", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", true),
    call("6", "bash", { command: "npx tsc --noEmit" }),
    result("6", "", false),
  ];

  it("the newest failures nothing later ran again successfully, newest first, each with why; looking around and a fixed check are not offered", () => {
    const facts = extractFacts(branch);
    // The last check passed: no graded error.
    expect(facts.unresolvedError).toBeUndefined();
    expect(facts.errorCandidates?.map((c) => c.text)).toEqual(["apply_patch verification failed: Failed to find expected lines in plan.md", "npm error code ENOTFOUND"]);
    expect(facts.errorCandidates?.[0]).toMatchObject({ messageId: "r2", why: expect.stringMatching(/apply_patch call that failed/) });
    expect(facts.errorCandidates?.[1]?.source).toMatchObject({ messageId: "r1", span: expect.any(Array) });
  });

  it("are listed under the error probe, which they leave skipped until one is accepted; accepted, it is graded", () => {
    const probes = buildProbes(extractFacts(branch));
    const error = probes.find((p) => p.id === "error")!;
    expect(error.expected).toBeNull();
    expect(error.skipReason).toMatch(/accept a failure/);
    expect(error.candidates?.length).toBe(2);
    const accepted = applyKeyEdits(error, { struck: [], added: [{ probe: "error", text: error.candidates![0]!.text }] });
    expect(accepted.expected).toBe("apply_patch verification failed: Failed to find expected lines in plan.md");
    expect(accepted.grade("The patch to plan.md failed: apply_patch verification failed, expected lines not found.").pass).toBe(true);
  });

  it("a patch done again on the same file, or a command run again and passing, closes the failure", () => {
    const retried = [...branch, call("7", "apply_patch", { input: "*** Begin Patch\n*** Update File: plan.md\n@@\n-a\n+c\n*** End Patch" }), result("7", "Done!", false)];
    expect(extractFacts(retried).errorCandidates?.map((c) => c.text)).toEqual(["npm error code ENOTFOUND"]);
  });
});

describe("the graded error", () => {
  it("is the failed check's, unless the session then found the program it needed missing", () => {
    const lint = [call("1", "bash", { command: "npm run lint" }), result("1", "TypeError: Module.createRequire is not a function", true)];
    expect(extractFacts(lint).unresolvedError?.text).toBe("TypeError: Module.createRequire is not a function");
    const missing = [
      ...lint,
      call("2", "bash", { command: "nvm use 20" }),
      result("2", "zsh:1: command not found: nvm", true),
      call("3", "bash", { command: "git status" }),
      result("3", "", false),
    ];
    expect(extractFacts(missing).unresolvedError).toMatchObject({ text: "zsh:1: command not found: nvm", messageId: "r2" });
    // A later failure of another kind leaves the check's error graded.
    const other = [...lint, call("2", "bash", { command: "cat nope.txt" }), result("2", "cat: nope.txt: No such file or directory", true)];
    expect(extractFacts(other).unresolvedError?.text).toBe("TypeError: Module.createRequire is not a function");
  });
});
