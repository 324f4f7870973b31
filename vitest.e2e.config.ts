import { defineConfig } from "vitest/config";

// Browser end-to-end tests: the built app (dist/) in Debian's Chromium.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
