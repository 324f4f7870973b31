// @vitest-environment happy-dom
/** The checkride's score cards and answer-key editing, against the in-process engine. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CheckridePanel } from "../../src/components/CheckridePanel.tsx";
import { sourceLabel } from "../../src/components/checkride/source-label.ts";
import { cancelCheckride, connect, loadSource, recompact, runCheckride, setCheckride, useApp } from "../../src/store/store.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { describeWithFixtures, fixtureSource } from "../helpers/fixtures.ts";

const bytes = fixtureSource;

beforeEach(async () => {
  connect(new InProcessClient());
  await act(() => loadSource(bytes("composed/pi-v3-tree.jsonl")));
  act(() => setCheckride({ open: true, edits: { struck: [], added: [] } }));
});
afterEach(cleanup);

const card = (strategy: string) => screen.getByRole("region", { name: `Checkride of ${strategy}` });
const row = (strategy: string, probe: string) => card(strategy).querySelector(`[data-testid=probe-row][data-probe-id=${probe}]`) as HTMLElement;

async function run() {
  render(<CheckridePanel />);
  await act(() => runCheckride());
}

describeWithFixtures("checkride cards", () => {
  it("labels a source by role and line", () => {
    expect(sourceLabel({ messageId: "x", line: 214, quote: "q", role: "user" })).toBe("user, line 214");
    expect(sourceLabel({ messageId: "x", line: 9, quote: "q", role: "toolResult" })).toBe("tool result, line 9");
    expect(sourceLabel({ messageId: "x", line: 169, quote: "q", role: "subagent" })).toBe("subagent, line 169");
    expect(sourceLabel({ messageId: "x", quote: "q" })).toBe("message message");
  });

  it("lists the key fact by fact with source links, pass/fail per fact, and the reader's answer", async () => {
    await run();
    const rules = row("transparent", "rules");
    expect(rules.getAttribute("data-status")).toBe("pass");
    const facts = within(rules).getAllByTestId("key-fact");
    expect(facts.length).toBeGreaterThan(0);
    expect(facts.every((f) => f.getAttribute("data-met") === "met" || f.getAttribute("data-met") === "missed")).toBe(true);
    const links = within(rules).getAllByTestId("fact-source");
    for (const link of links) expect(link.textContent).toMatch(/^user, line \d+$/);
    expect(within(rules).getByText("reader's answer")).toBeTruthy();
    expect(screen.getByTestId("reader-explanation").textContent).toContain("Facts present in context");
    // Without a model, the summary-alone tier is skipped, not scored.
    const tier = screen.getAllByTestId("checkride-score").find((s) => s.getAttribute("data-strategy") === "handoff · summary alone")!;
    expect(tier.textContent).toBe("needs a model");
    expect(card("handoff · summary alone").querySelectorAll("[data-testid=probe-row]").length).toBe(0);
  });

  it("says beside each probe's key how often that key is right on blind-labelled sessions", async () => {
    await run();
    const rules = within(row("transparent", "rules")).getByTestId("key-trust");
    expect(rules.textContent).toMatch(
      /on blind-labelled sessions(: right \d+ of \d+, finds \d+ of \d+| this key graded none by itself \(a rule said once waits for you\); there its candidates found \d+ of the \d+ a reviewer labelled)/,
    );
    expect(rules.getAttribute("title")).toContain("labelled blind");
    // Intent is not scored by the labels: no figure is claimed for it.
    expect(within(row("transparent", "intent")).queryByTestId("key-trust")).toBeNull();
  });

  it("clicking a source focuses the fact and shows its quote highlighted", async () => {
    await run();
    const link = within(row("transparent", "rules")).getAllByTestId("fact-source")[0]!;
    await act(async () => fireEvent.click(link));
    await waitFor(() => expect(row("transparent", "rules").querySelector("mark[data-testid=fact-quote]")).toBeTruthy());
    const messageId = link.getAttribute("data-message-id")!;
    await waitFor(() => expect(useApp.getState().detail?.original?.id).toBe(messageId));
  });

  it("striking a fact re-grades in the worker; putting it back restores the cached result", async () => {
    await run();
    const score = () => within(card("transparent")).getByTestId("checkride-score").textContent;
    const before = score();
    const verify = () => row("transparent", "verify");
    expect(verify().getAttribute("data-status")).toBe("pass");
    await act(async () => fireEvent.click(within(verify()).getByTestId("strike-fact")));
    await waitFor(() => expect(verify().getAttribute("data-status")).toBe("skipped"));
    expect(score()).not.toBe(before);
    expect(useApp.getState().checkride.edits.struck).toEqual([{ probe: "verify", fact: expect.stringContaining("npm test") }]);
    expect(verify().querySelector("s")).toBeTruthy();
    expect(screen.getByTestId("key-edits").textContent).toMatch(/1 struck, 0 added/);
    await act(async () => fireEvent.click(within(verify()).getByRole("button", { name: "restore" })));
    await waitFor(() => expect(verify().getAttribute("data-status")).toBe("pass"));
    expect(score()).toBe(before);
  });

  it("an added fact is graded and marked as the user's", async () => {
    await run();
    const files = () => row("transparent", "files");
    await act(async () => fireEvent.click(within(files()).getByRole("button", { name: "+ add a fact" })));
    fireEvent.change(within(files()).getByLabelText("New fact for files"), { target: { value: "nowhere/never-touched.rs" } });
    await act(async () => fireEvent.click(within(files()).getByRole("button", { name: "Add" })));
    await waitFor(() => expect(within(files()).getByText("added by you")).toBeTruthy());
    const added = within(files()).getAllByTestId("key-fact").at(-1)!;
    expect(added.textContent).toContain("nowhere/never-touched.rs");
    expect(added.getAttribute("data-met")).toBe("missed");
  });

  it("a strategy change says the results went; switching back shows the cached results at once", async () => {
    await run();
    const strategy = useApp.getState().view!.strategy;
    const results = useApp.getState().checkride.results;
    await act(() => recompact({ strategy: "brief" }));
    expect(useApp.getState().checkride.results).toBeNull();
    expect(screen.getByTestId("checkride-cleared").textContent).toMatch(/cleared because/);
    await act(() => recompact({ strategy }));
    expect(useApp.getState().checkride.results).toBe(results);
  });

  it("cancel stops a running checkride and leaves no progress", async () => {
    render(<CheckridePanel />);
    let done: Promise<void> | undefined;
    act(() => {
      done = runCheckride();
    });
    expect(useApp.getState().checkride.task).not.toBeNull();
    act(() => cancelCheckride());
    await act(() => done!);
    expect(useApp.getState().checkride.task).toBeNull();
    expect(useApp.getState().checkride.error).toBeNull();
    expect(screen.queryByTestId("checkride-progress")).toBeNull();
  });

  it("the worker reports progress per strategy and stops at its next step once cancelled", async () => {
    const client = useApp.getState().client!;
    const steps: string[] = [];
    const pending = client.request(
      { type: "checkride", view: useApp.getState().view!.id, params: { strategies: ["transparent", "recorded", "brief"], reader: "literal" } },
      (p) => {
        steps.push(`${p.stage} ${p.loaded}/${p.total} ${p.label}`);
        if (p.label === "graded recorded") client.cancel(pending.id);
      },
    );
    await expect(pending.promise).rejects.toMatchObject({ cancelled: true });
    expect(steps).toEqual([
      "checkride 0/3 compacting with transparent",
      "checkride 0/3 grading transparent",
      "checkride 1/3 graded transparent",
      "checkride 1/3 compacting with recorded",
      "checkride 1/3 grading recorded",
      "checkride 2/3 graded recorded",
    ]);
  });
});

/** A composed OpenAI-style chat, as the file input hands it to the store. */
function chatFile(name: string, chat: { role: string; content: string }[]) {
  const bytes = new TextEncoder().encode(JSON.stringify(chat));
  return { kind: "bytes" as const, bytes: bytes.buffer as ArrayBuffer, name };
}

/** Opens a composed chat in a fresh engine and runs the checkride on it. */
async function runOnChat(file: ReturnType<typeof chatFile>) {
  connect(new InProcessClient());
  await act(() => loadSource(file));
  act(() => setCheckride({ open: true, edits: { struck: [], added: [] } }));
  await run();
}

/** A composed chat whose only rule-shaped sentences are ones the extractor is not sure of. */
function chatWithCandidates() {
  return chatFile("candidates.json", [
    { role: "user", content: "Add a CSV export to src/export.ts. I don't want a header row in the file." },
    { role: "assistant", content: "Added the export without a header row." },
    { role: "user", content: "The export should skip rows whose amount is zero." },
    { role: "assistant", content: "Done: zero rows are skipped." },
  ]);
}

// Inside the fixtures' suite: the file's beforeEach opens a fixture first.
describeWithFixtures("checkride candidates", () => {
  it("candidates are listed with why, not graded; accepting one grades it, striking one keeps it listed, struck", async () => {
    await runOnChat(chatWithCandidates());
    const rules = () => row("transparent", "rules");
    expect(rules().getAttribute("data-status")).toBe("skipped");
    expect(within(rules()).getByText(/accept a candidate to grade it/)).toBeTruthy();
    const candidates = () => within(rules()).getAllByTestId("key-candidate");
    expect(candidates().map((c) => c.querySelector(".fact-text")!.textContent)).toEqual([
      expect.stringContaining("I don't want a header row in the file."),
      expect.stringContaining("The export should skip rows whose amount is zero."),
    ]);
    expect(candidates()[0]!.textContent).toMatch(/what the user wants/);

    await act(async () => fireEvent.click(within(candidates()[0]!).getByTestId("accept-candidate")));
    await waitFor(() => expect(rules().getAttribute("data-status")).toBe("pass"));
    expect(
      within(rules())
        .getAllByTestId("key-fact")
        .map((f) => f.textContent),
    ).toEqual([expect.stringContaining("I don't want a header row")]);
    expect(candidates()).toHaveLength(1);

    await act(async () => fireEvent.click(within(candidates()[0]!).getByTestId("strike-candidate")));
    await waitFor(() => expect(candidates()[0]!.getAttribute("data-struck")).toBe("true"));
    expect(useApp.getState().checkride.edits).toEqual({
      struck: [{ probe: "rules", fact: "The export should skip rows whose amount is zero." }],
      added: [{ probe: "rules", text: "I don't want a header row in the file." }],
    });
    expect(rules().getAttribute("data-status")).toBe("pass");
  });
});

/** A composed chat with more candidates than the list shows open, of two reasons. */
function chatWithManyCandidates() {
  const wants = ["a header row", "a footer row", "colour in the output", "a progress bar", "emoji in the log"].map((thing) => `I don't want ${thing} in the export.`);
  const shoulds = ["skip zero rows", "round to cents", "sort by date", "trim the names", "quote every field"].map((step) => `The export should ${step} in the file.`);
  return chatFile(
    "many-candidates.json",
    [...wants, ...shoulds].flatMap((content) => [
      { role: "user", content },
      { role: "assistant", content: "Done." },
    ]),
  );
}

describeWithFixtures("a long candidate list", () => {
  it("starts closed and can be narrowed to one reason at a time, with counts", async () => {
    await runOnChat(chatWithManyCandidates());
    const rules = () => row("transparent", "rules");
    const list = within(rules()).getByTestId("candidates");
    expect(list.hasAttribute("open")).toBe(false);
    const reasons = within(list).getByTestId("candidate-reasons");
    const chips = within(reasons).getAllByRole("button");
    expect(chips.map((chip) => chip.textContent)).toEqual(["all 10", "says what the user wants (5)", "'should' or 'needs to' (5)"]);
    expect(chips[0]!.getAttribute("aria-pressed")).toBe("true");
    const shown = () =>
      within(list)
        .getAllByTestId("key-candidate")
        .map((c) => c.querySelector(".fact-text")!.textContent);
    expect(shown()).toHaveLength(10);

    await act(async () => fireEvent.click(chips[2]!));
    expect(shown()).toHaveLength(5);
    expect(shown().every((text) => text!.includes("should"))).toBe(true);
    expect(chips[2]!.getAttribute("aria-pressed")).toBe("true");
    // The same chip again, or "all", shows every candidate.
    await act(async () => fireEvent.click(chips[2]!));
    expect(shown()).toHaveLength(10);
    expect(within(list).queryByTestId("strike-reason")).toBeNull();
  });

  it("strikes one reason's candidates in one go, and only those", async () => {
    await runOnChat(chatWithManyCandidates());
    const list = within(row("transparent", "rules")).getByTestId("candidates");
    const chips = within(within(list).getByTestId("candidate-reasons")).getAllByRole("button");
    await act(async () => fireEvent.click(chips[2]!));
    const strike = within(list).getByTestId("strike-reason");
    expect(strike.textContent).toBe("Strike these 5 ('should' or 'needs to')");
    await act(async () => fireEvent.click(strike));
    const struck = (c: HTMLElement) => c.getAttribute("data-struck") === "true";
    await waitFor(() => expect(within(list).getAllByTestId("key-candidate").every(struck)).toBe(true));
    // Nothing left to strike under that reason, and it can be undone; the other reason's candidates are untouched.
    expect(within(list).queryByTestId("strike-reason")).toBeNull();
    const restore = within(list).getByTestId("restore-reason");
    expect(restore.textContent).toBe("Restore these 5");
    await act(async () => fireEvent.click(chips[0]!));
    expect(within(list).getAllByTestId("key-candidate").filter(struck)).toHaveLength(5);
    await act(async () => fireEvent.click(chips[2]!));
    await act(async () => fireEvent.click(within(list).getByTestId("restore-reason")));
    await waitFor(() => expect(within(list).getAllByTestId("key-candidate").some(struck)).toBe(false));
  });
});
