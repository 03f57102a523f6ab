import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@mmw/test-support/global-setup', './test/build-output.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
