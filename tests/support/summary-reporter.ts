import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { packagedChromiumNotice } from './chromium-choice.js';
import { webkitNotice } from './engine-choice.js';

/** How long a test file runs before the run names it, and how often it names it again. */
const SLOW_FILE_MS = 5 * 60_000;
const CHECK_EVERY_MS = 60_000;

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader
 * understands, whatever vitest's own summary looks like. On the way, a file that has run for
 * five minutes is named, with the test it is in, every five minutes after: a run that stalls
 * says where before a CI time limit cuts its log.
 */
export default class SummaryReporter implements Reporter {
  private readonly running = new Map<string, { since: number; named: number; test: string }>();
  private timer: NodeJS.Timeout | undefined;

  onTestRunStart(): void {
    this.timer = setInterval(() => this.nameSlowFiles(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onTestModuleStart(mod: TestModule): void {
    this.running.set(mod.moduleId, { since: Date.now(), named: 0, test: '' });
  }

  onTestCaseReady(test: TestCase): void {
    const file = this.running.get(test.module.moduleId);
    if (file) file.test = test.fullName;
  }

  onTestModuleEnd(mod: TestModule): void {
    this.running.delete(mod.moduleId);
  }

  private nameSlowFiles(): void {
    const now = Date.now();
    for (const [id, file] of this.running) {
      if (now - file.since < SLOW_FILE_MS || now - file.named < SLOW_FILE_MS) continue;
      file.named = now;
      const minutes = Math.floor((now - file.since) / 60_000);
      process.stdout.write(`\nstill running after ${minutes} min: ${relative(process.cwd(), id)}${file.test ? ` (last test begun: ${file.test})` : ''}\n`);
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    clearInterval(this.timer);
    this.running.clear();
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
