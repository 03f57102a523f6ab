import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@mmw/test-support/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
