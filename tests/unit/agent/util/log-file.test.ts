import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogFile } from '../../../../agent/util/log-file.js';
import { createLogger } from '../../../../agent/util/log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-log-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const notice = (count: number) => `dropped ${count}\n`;
/** A 100-byte line, numbered. */
const line = (n: number) => `${String(n).padStart(6, '0')} ${'x'.repeat(92)}\n`;

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

describe('the log file', () => {
  it('rotates by size, keeps the given number of old files, all owner-only, newest lines in agent.log', async () => {
    const path = join(dir, 'logs', 'agent.log');
    const file = new LogFile(path, notice, { maxBytes: 1_000, keep: 3, maxPendingBytes: 1_000_000 });
    for (let i = 0; i < 60; i++) {
      file.write(line(i));
      // One line per batch, so every append sees the size the one before left.
      await file.flush();
    }

    expect(readdirSync(join(dir, 'logs')).sort()).toEqual(['agent.log', 'agent.log.1', 'agent.log.2', 'agent.log.3']);
    for (const name of readdirSync(join(dir, 'logs'))) {
      const path = join(dir, 'logs', name);
      expect(statSync(path).size, name).toBeLessThanOrEqual(1_000);
      expect(statSync(path).mode & 0o777, name).toBe(0o600);
    }
    // Read oldest to newest, the kept lines are the last 40, in order.
    const kept = ['agent.log.3', 'agent.log.2', 'agent.log.1', 'agent.log'].flatMap((n) => lines(join(dir, 'logs', n)));
    expect(kept.map((l) => Number(l.slice(0, 6)))).toEqual(Array.from({ length: 40 }, (_, i) => 20 + i));
  });

  it('rotates a file left too big by an earlier run before writing to it', async () => {
    const path = join(dir, 'agent.log');
    writeFileSync(path, 'old\n'.repeat(300), { mode: 0o600 });
    const file = new LogFile(path, notice, { maxBytes: 1_000, keep: 3, maxPendingBytes: 1_000_000 });
    file.write(line(1));
    await file.flush();
    expect(lines(path)).toEqual([line(1).trim()]);
    expect(lines(`${path}.1`)).toHaveLength(300);
  });

  it('drops lines past the pending cap, and says how many in the file', async () => {
    const path = join(dir, 'agent.log');
    const file = new LogFile(path, notice, { maxBytes: 1_000_000, keep: 3, maxPendingBytes: 500 });
    // All in one turn of the event loop: nothing can be written in between.
    for (let i = 0; i < 50; i++) file.write(line(i));
    await file.flush();

    const written = lines(path);
    const noticeLine = written.find((l) => l.startsWith('dropped '));
    expect(noticeLine).toBeDefined();
    const dropped = Number(noticeLine?.slice('dropped '.length));
    const kept = written.filter((l) => !l.startsWith('dropped '));
    expect(dropped).toBeGreaterThan(0);
    expect(kept.length + dropped).toBe(50);
    // The lines kept are the first ones, in order; the notice comes after them.
    expect(kept.map((l) => Number(l.slice(0, 6)))).toEqual(Array.from({ length: kept.length }, (_, i) => i));
    expect(written.at(-1)).toBe(noticeLine);

    // Once drained, lines are taken again.
    file.write(line(99));
    await file.flush();
    expect(lines(path).at(-1)).toBe(line(99).trim());
  });

  it('lets the logger flush: every line logged before is in the file', async () => {
    const path = join(dir, 'agent.log');
    const log = createLogger({ file: path, stderr: false });
    for (let i = 0; i < 100; i++) log.info('line', { i });
    await log.flush();
    expect(lines(path)).toHaveLength(100);
    expect(lines(path).at(-1)).toMatch(/line \{"i":99\}$/);
  });
});
