import { defineConfig } from "vitest/config";

// Unit, property and component tests. Browser end-to-end tests have their own
// config (vitest.e2e.config.ts) because they need a built app and Chromium.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    exclude: ["test/e2e/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
