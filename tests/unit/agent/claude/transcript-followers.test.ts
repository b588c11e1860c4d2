import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TranscriptFollowers } from '../../../../agent/claude/transcript-followers.js';
import { TranscriptReader } from '../../../../agent/claude/transcript-reader.js';
import { eventually } from '../../../support/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'pocketmux-followers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = `${JSON.stringify({ type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`;

function transcript(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, line.repeat(1000));
  return path;
}

describe('TranscriptFollowers', () => {
  it('gives a reader back to the next follower of the same path, which resumes where it stopped', async () => {
    const path = transcript('a.jsonl');
    let made = 0;
    const followers = new TranscriptFollowers((p) => {
      made++;
      return new TranscriptReader(p);
    });
    const first = followers.acquire(path);
    await first.poll();
    expect(first.stats().position).toBe(line.length * 1000);
    followers.release(first);

    const again = followers.acquire(path);
    expect(again).toBe(first);
    await again.poll();
    expect(again.stats().position).toBe(line.length * 1000);
    expect(made).toBe(1);
    followers.dispose();
  });

  it('keeps at most `max` readers, letting the least recently used idle one go first', () => {
    const followers = new TranscriptFollowers((p) => new TranscriptReader(p), { max: 2 });
    const a = followers.acquire(join(dir, 'x1'));
    const b = followers.acquire(join(dir, 'x2'));
    followers.release(a);
    followers.release(b);
    followers.acquire(join(dir, 'x1'));
    followers.release(a);
    followers.acquire(join(dir, 'x3'));
    expect(followers.size).toBe(2);
    expect(followers.acquire(join(dir, 'x1'))).toBe(a);
    expect(followers.acquire(join(dir, 'x2'))).not.toBe(b);
    followers.dispose();
  });

  it('lets an idle reader go after a while, but not one in use', async () => {
    const followers = new TranscriptFollowers((p) => new TranscriptReader(p), { idleMs: 20 });
    const used = followers.acquire(join(dir, 'used'));
    const idle = followers.acquire(join(dir, 'idle'));
    followers.release(idle);
    await eventually(() => followers.size === 1, 5_000, 'the idle reader to go');
    expect(followers.acquire(join(dir, 'used'))).toBe(used);
    followers.dispose();
  });
});
