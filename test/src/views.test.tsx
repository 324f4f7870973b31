// @vitest-environment happy-dom
/** Views rendered against the store (in-process engine): stats, errors, markers and recovery, detail, help. */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { CrashBanner, LoadError, Warnings } from "../../src/components/Banners.tsx";
import { OmissionMarker } from "../../src/components/blocks.tsx";
import { DetailPanel } from "../../src/components/DetailPanel.tsx";
import { HelpOverlay } from "../../src/components/HelpOverlay.tsx";
import { StatsBar } from "../../src/components/StatsBar.tsx";
import { connect, loadSource, select, setShowHelp, useApp } from "../../src/store/store.ts";
import { InProcessClient } from "../helpers/in-process-client.ts";
import { describeWithFixtures, fixtureSource } from "../helpers/fixtures.ts";

const bytes = fixtureSource;

beforeEach(async () => {
  connect(new InProcessClient());
  await act(() => loadSource(bytes("composed/pi-v3-tree.jsonl")));
});
afterEach(cleanup);

describeWithFixtures("views", () => {
  it("StatsBar shows the checkpoint's own figures", () => {
    render(<StatsBar />);
    const stats = useApp.getState().view!.stats;
    expect(screen.getByTestId("stats-original-chars").textContent).toBe(stats.originalChars.toLocaleString("en-US"));
    expect(screen.getByTestId("stats-active-chars").textContent).toBe(stats.activeChars.toLocaleString("en-US"));
    expect(screen.getByTestId("stats-payloads").textContent).toBe("9");
    expect(screen.getByText(/6 \/ 6 segments/)).toBeTruthy();
  });

  it("LoadError names the file and line; CrashBanner offers a retry", async () => {
    await act(() => loadSource({ kind: "bytes", bytes: new TextEncoder().encode("{oops\n").buffer as ArrayBuffer, name: "oops.jsonl" }));
    render(
      <>
        <LoadError />
        <CrashBanner />
      </>,
    );
    expect(screen.getByTestId("load-error").textContent).toMatch(/oops\.jsonl \(line 1\)/);
    expect(screen.getByTestId("load-error").textContent).toMatch(/previous session is still shown/);
    act(() => useApp.setState({ crashed: "boom" }));
    expect(screen.getByTestId("worker-crashed").textContent).toContain("boom");
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });

  it("lists lenient warnings with their lines", async () => {
    await act(() => loadSource(bytes("claude/entireio__cli__d0-161e0df1cb.jsonl")));
    render(<Warnings />);
    expect(screen.getByText(/1 warning while reading/)).toBeTruthy();
    expect(screen.getByText("line 776:")).toBeTruthy();
  });

  it("an omission marker recovers on click and shows the verified payload", async () => {
    const row = (await useApp.getState().client!.request({ type: "rows", view: useApp.getState().view!.id, pane: "active", start: 0, end: 18 }).promise).find(
      (r) => r.id === "c0000004",
    )!;
    const block = row.blocks.find((b) => b.type === "omitted")!;
    const { container } = render(<OmissionMarker block={block} />);
    const marker = screen.getByTestId("omission-marker");
    expect(marker.getAttribute("data-recovery-id")).toBe("c0000004#/blocks");
    expect(marker.getAttribute("data-sha256")).toBe(block.sha256);
    expect(marker.textContent).toContain("bash result (toolu_04): error, exit 1");
    act(() => void fireEvent.click(screen.getByTestId("recover-button")));
    await vi.waitFor(() => expect(useApp.getState().recovered["c0000004#/blocks"]?.status).toBe("done"));
    await vi.waitFor(() => expect(container.textContent).toContain("Hide"));
  });

  it("DetailPanel shows the message from both sides and renders session text as text", async () => {
    await act(() => select({ pane: "active", index: 0 }));
    render(<DetailPanel />);
    expect(screen.getByText("Selected message")).toBeTruthy();
    expect(document.body.innerHTML).toContain("Grüße, 東京, emoji 🧾");
    expect(document.querySelectorAll("script").length).toBe(0);
  });

  it("HTML in a session stays text: no element is created from it, links are not live", async () => {
    const hostile = JSON.stringify([
      { role: "user", content: '<img src=x onerror="alert(1)"><a href="https://example.com">click</a><script>alert(2)</script>' },
      { role: "assistant", content: "ok" },
    ]);
    await act(() => loadSource({ kind: "bytes", bytes: new TextEncoder().encode(hostile).buffer as ArrayBuffer, name: "hostile.json" }));
    await act(() => select({ pane: "active", index: 0 }));
    const { container } = render(<DetailPanel />);
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.querySelectorAll("img, a, script").length).toBe(0);
  });

  it("HelpOverlay lists the keys and closes", () => {
    act(() => setShowHelp(true));
    render(<HelpOverlay />);
    expect(screen.getByRole("dialog", { name: "Keyboard shortcuts" }).textContent).toContain("next / previous omission marker");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(useApp.getState().showHelp).toBe(false);
  });
});
