import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@mmw/test-support/global-setup'],
    // Each test starts the agent as real processes (node with tsx, npm, pnpm, script): seconds each
    // on a busy machine. One file at a time keeps them from starving each other.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
