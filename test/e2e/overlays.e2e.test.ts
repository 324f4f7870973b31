/**
 * Overlays close the way people expect (#31): the notes popover, help and the
 * share panel each close on an outside press, and on Esc in their order (the
 * topmost first). On the app's own demo session, so no fixture is needed.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openApp, startHarness, type Harness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

it("the notes popover, help and the share panel close on an outside press and on Esc", async () => {
  const opened = await openApp(harness);
  const { page } = opened;
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor({ timeout: 60_000 });
  const isOpen = (testId: string) => page.getByTestId(testId).evaluate((e) => (e as HTMLDetailsElement).open);
  const paneTitle = page.locator("[data-testid=original-pane] .pane-title");

  // The notes popover: a press on the pane title closes it; so does Esc, and Esc then leaves the selection alone.
  const why = page.getByTestId("usage-why");
  await why.locator("summary").click();
  await expect.poll(() => isOpen("usage-why")).toBe(true);
  await paneTitle.click();
  await expect.poll(() => isOpen("usage-why")).toBe(false);
  await page.locator("[data-testid=original-pane] [data-testid=message-row]").first().click();
  await page.locator(".detail").waitFor();
  await why.locator("summary").click();
  await expect.poll(() => isOpen("usage-why")).toBe(true);
  await page.keyboard.press("Escape");
  await expect.poll(() => isOpen("usage-why")).toBe(false);
  expect(await page.locator(".detail").count()).toBe(1);

  // Help: a press on the backdrop closes it, and Esc.
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await help.waitFor();
  await page.mouse.click(5, 890);
  await help.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await help.waitFor();
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });

  // The share panel: a press inside keeps it, a press outside closes it; its own button opens it again.
  await page.getByTestId("share-toggle").click();
  const share = page.getByTestId("share-panel");
  await share.waitFor();
  await share.locator("h2").click();
  expect(await share.count()).toBe(1);
  await paneTitle.click();
  await share.waitFor({ state: "detached" });
  await page.getByTestId("share-toggle").click();
  await share.waitFor();
  // Stacked: help over the share panel; Esc closes help first, then the share panel.
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await help.waitFor();
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });
  expect(await share.count()).toBe(1);
  await page.keyboard.press("Escape");
  await share.waitFor({ state: "detached" });
  expect(opened.errors).toEqual([]);
  await opened.context.close();
}, 120_000);
