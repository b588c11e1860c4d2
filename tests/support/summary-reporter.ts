import type { Reporter, TestModule } from 'vitest/node';
import { packagedChromiumNotice } from './chromium-choice.js';
import { webkitNotice } from './engine-choice.js';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader
 * understands, whatever vitest's own summary looks like.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file can fail outside any test (a hook such as afterAll): count it too.
      if (mod.state() === 'failed' && ![...mod.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    failed += unhandledErrors.length;
    const browsers = testModules.some((mod) => mod.moduleId.includes('/tests/e2e/'));
    for (const notice of browsers ? [packagedChromiumNotice(), webkitNotice()] : []) if (notice) process.stdout.write(`\n${notice}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
