import { openApp, startHarness, SCREENSHOTS } from "./harness.ts";
const h = await startHarness();
const { page, errors, requests } = await openApp(h);
await page.waitForTimeout(4000);
await page.waitForTimeout(500);
await page.screenshot({ path: `${SCREENSHOTS}/peek.png` });
console.log("errors", errors, requests.length);
await h.close();
