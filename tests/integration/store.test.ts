import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../agent/store/atomic-file.js';
import { InstanceLock } from '../../agent/store/lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});


/** The store's files against other processes: a reader running beside a writer, a lock whose holder died. */
describe('atomic writes', () => {
  it('never exposes a partial file to a concurrent reader', async () => {
    const path = join(dir, 'big.json');
    const big = { n: 0, pad: 'x'.repeat(2 * 1024 * 1024) };
    writeJsonAtomic(path, big);
    // Another process reads in a tight loop while this one rewrites the file.
    const reader = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); let bad = 0, reads = 0; process.stdout.write('ready\\n');
       const end = Date.now() + 1500;
       while (Date.now() < end) { reads++; try { JSON.parse(fs.readFileSync(${JSON.stringify(path)}, 'utf8')); } catch { bad++; } }
       process.stdout.write(bad + ' ' + reads);`,
    ]);
    let out = '';
    reader.stdout.on('data', (d) => {
      out += d;
    });
    await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => reader.on('exit', resolve));
    let writes = 0;
    while (reader.exitCode === null && writes < 500) {
      writeJsonAtomic(path, { ...big, n: ++writes });
      await new Promise((r) => setImmediate(r));
    }
    await exited;
    const [bad, reads] = out.replace('ready\n', '').split(' ').map(Number);
    expect(reads).toBeGreaterThan(0);
    expect(writes).toBeGreaterThan(1);
    expect(bad).toBe(0);
  });

});

describe('single-instance lock', () => {
  it('reclaims a lock left by a dead process', () => {
    const path = join(dir, 'agent.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(path, `${dead.stdout}\n`);
    const lock = InstanceLock.acquire(path);
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    lock.dispose();
    expect(existsSync(path)).toBe(false);
  });

});
