/**
 * Browser test harness: serves the built app (dist/) with Vite's preview
 * server on 127.0.0.1 and drives Debian's Chromium through playwright-core.
 * Never downloads a browser. Every request the page makes is recorded so
 * tests can assert that nothing left the origin.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { preview, type PreviewServer } from "vite";
import { ROOT } from "../helpers/cli.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(ROOT, "test-results/screenshots");

export interface Harness {
  server: PreviewServer;
  browser: Browser;
  origin: string;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  if (!existsSync(join(ROOT, "dist/index.html"))) throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await preview({ root: ROOT, logLevel: "silent", preview: { host: "127.0.0.1", port: 0, strictPort: false, open: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === "string") throw new Error("preview server has no port");
  const origin = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  return {
    server,
    browser,
    origin,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    },
  };
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Every URL the page asked for (documents, scripts, workers, fetches). */
  requests: string[];
  errors: string[];
}

export async function openApp(harness: Harness, hash = "", viewport = { width: 1440, height: 900 }): Promise<OpenedPage> {
  const context = await harness.browser.newContext({ viewport, colorScheme: "light" });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${harness.origin}/${hash}`);
  return { context, page, requests, errors };
}

/** Requests that left the app's own origin (data: and blob: stay in the page). */
export function foreignRequests(requests: string[], origin: string): string[] {
  return requests.filter((url) => !url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:"));
}

/**
 * A file that records compactions opens on the audit of its last one. Tests
 * about the strategy comparison go to it as a user would, with "Strategies";
 * on any other file this does nothing.
 */
export async function toStrategies(page: Page): Promise<void> {
  await page.getByTestId("load-progress").waitFor({ state: "detached", timeout: 60_000 });
  if ((await page.locator(".pane-title h2", { hasText: /^Before compaction #/ }).count()) === 0) return;
  await page.getByRole("button", { name: "Strategies" }).click();
  await page.locator(".pane-title h2", { hasText: "Original branch" }).waitFor({ timeout: 30_000 });
  await page.locator("[data-testid=active-pane] [data-testid=message-row]").first().waitFor({ timeout: 30_000 });
}
