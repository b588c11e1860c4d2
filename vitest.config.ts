import { defineConfig } from 'vitest/config';

/**
 * Three tiers, one project each (`vitest run --project <name>`):
 * - unit: pure code, fakes and fast-check; starts no process, opens no socket, needs no build.
 * - integration: the built agent, real tmux, node-pty, HTTP and WebSockets; with the property,
 *   fault and load suites, which drive the same real parts or run long.
 * - e2e: the PWA in real Chromium, and the cross-engine suites (engines-*) in WebKit too.
 * Integration and e2e run the built `bin/pocketmux.js`, so their npm scripts build first.
 */
const browserFaults = ['tests/faults/pwa-offline-approval.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // What a browser or an agent shows after a change, a loaded CI machine can take seconds to
    // show: a poll that names no timeout waits 15 s, not vitest's 1 s.
    expect: { poll: { timeout: 15_000 } },
    // Integration tests each run an agent, tmux and shells; two at a time suits two cores.
    maxWorkers: 2,
    pool: 'forks',
    // Each run gets a temp dir and a tmux socket tag of its own, and fails if the tests leave either behind.
    globalSetup: ['./tests/support/leftovers.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/faults/**/*.test.ts', 'tests/property/**/*.test.ts', 'tests/load/**/*.test.ts'],
          exclude: browserFaults,
        },
      },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts', ...browserFaults] } },
    ],
  },
});
