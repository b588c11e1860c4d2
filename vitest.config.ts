import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests each run an agent, tmux and shells; two at a time suits two cores.
    maxWorkers: 2,
    pool: 'forks',
    // Each run gets a temp dir and a tmux socket tag of its own, and fails if the tests leave either behind.
    globalSetup: ['./tests/support/leftovers.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
