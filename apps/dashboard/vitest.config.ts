import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@mmw/test-support/global-setup', './test/build-web.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
