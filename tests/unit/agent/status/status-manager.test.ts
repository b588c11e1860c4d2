import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHookPayload, StatusLineReport } from '../../../../protocol/hooks.js';
import type { StatusServerMessage } from '../../../../protocol/status.js';
import { StatusManager } from '../../../../agent/status/status-manager.js';
import { outsideSessionKey } from '../../../../protocol/hook-contract.js';
import { capturedHook } from '../../../support/status.js';
import { createLogger } from '../../../../agent/util/log.js';

const sessionStart = capturedHook('SessionStart');

function startOf(sessionId: string) {
  const parsed = parseHookPayload('SessionStart', { ...sessionStart, session_id: sessionId });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.payload;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-status-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('Claude sessions outside the tabs', () => {
  it('keeps at most the cap; the least recently active is forgotten and a removal is sent', async () => {
    const status = new StatusManager(join(dir, 'status.json'), createLogger({ stderr: false }), 3);
    const messages: StatusServerMessage[] = [];
    status.on('message', (m) => messages.push(m));

    status.applyHook(outsideSessionKey('s1'), startOf('s1'), 1_000);
    status.applyHook(outsideSessionKey('s2'), startOf('s2'), 2_000);
    status.applyHook(outsideSessionKey('s3'), startOf('s3'), 3_000);
    // s1 is heard from again; s2 is now the least recently active.
    status.applyUsage(outsideSessionKey('s1'), StatusLineReport.parse({ session_id: 's1' }), 4_000);
    // A tab of the agent's own does not count against the cap.
    status.applyHook('tb-own', startOf('own'), 4_500);
    status.applyHook(outsideSessionKey('s4'), startOf('s4'), 5_000);

    expect(Object.keys(status.snapshot()).sort()).toEqual(['outside-s1', 'outside-s3', 'outside-s4', 'tb-own']);
    expect(messages.filter((m) => m.type === 'status:removed')).toEqual([{ type: 'status:removed', tabId: 'outside-s2' }]);
    await status.flush();
  });

  it('trims sessions kept by an earlier run past the cap at load', async () => {
    const path = join(dir, 'status.json');
    const before = new StatusManager(path, createLogger({ stderr: false }), 10);
    for (let i = 0; i < 5; i++) before.applyHook(outsideSessionKey(`s${i}`), startOf(`s${i}`), 1_000 * (i + 1));
    await before.flush();

    const after = new StatusManager(path, createLogger({ stderr: false }), 2);
    after.load();
    expect(Object.keys(after.snapshot()).sort()).toEqual(['outside-s3', 'outside-s4']);
  });

  it('reads the keys an earlier version wrote for outside sessions under the prefix of today', async () => {
    const path = join(dir, 'status.json');
    const before = new StatusManager(path, createLogger({ stderr: false }), 10);
    before.applyHook(outsideSessionKey('s1'), startOf('s1'), 1_000);
    before.applyHook('tb-own', startOf('own'), 2_000);
    await before.flush();
    // The same file as versions up to 0.1 wrote it: their key prefix for the sessions outside the tabs.
    writeFileSync(path, readFileSync(path, 'utf8').replace('"outside-s1"', '"unmanaged-s1"'));

    const after = new StatusManager(path, createLogger({ stderr: false }), 10);
    after.load();
    expect(Object.keys(after.snapshot()).sort()).toEqual(['outside-s1', 'tb-own']);
    expect(after.get('outside-s1')?.state).toBe('idle');
  });
});

describe('a turn\u2019s changes on the status', () => {
  it('are sent to clients when they come, and kept across a restart', async () => {
    const file = join(dir, 'status.json');
    const status = new StatusManager(file, createLogger({ stderr: false }), 3);
    const messages: StatusServerMessage[] = [];
    status.on('message', (m) => messages.push(m));
    status.applyHook('tb-1', startOf('s1'), 1_000);
    const stop = parseHookPayload('Stop', { session_id: 's1', hook_event_name: 'Stop' });
    if (!stop.ok) throw new Error(stop.error);
    status.applyHook('tb-1', stop.payload, 2_000);
    messages.length = 0;
    status.apply('tb-1', { kind: 'turn-changes', total: { files: 3, added: 40, removed: 12 }, at: 3_000 });
    expect(messages).toEqual([{ type: 'status:update', tabId: 'tb-1', status: expect.objectContaining({ turnChanges: { files: 3, added: 40, removed: 12 } }) }]);
    // The same total again changes nothing and sends nothing.
    status.apply('tb-1', { kind: 'turn-changes', total: { files: 3, added: 40, removed: 12 }, at: 3_500 });
    expect(messages).toHaveLength(1);
    await status.dispose();
    const again = new StatusManager(file, createLogger({ stderr: false }), 3);
    again.load();
    expect(again.get('tb-1')?.turnChanges).toEqual({ files: 3, added: 40, removed: 12 });
    await again.dispose();
  });
});

describe('what reaches clients', () => {
  it('every event that changes what a status says sends it once; one that changes nothing sends nothing', async () => {
    const status = new StatusManager(join(dir, 'status.json'), createLogger({ stderr: false }), 3);
    const messages: StatusServerMessage[] = [];
    status.on('message', (m) => messages.push(m));
    status.applyHook('tb-1', startOf('s1'), 1_000);
    const events = [
      { kind: 'mode-seen', mode: 'plan', at: 2_000 },
      { kind: 'mode-seen', mode: 'plan', at: 2_100 },
      { kind: 'approval-open', at: 2_200 },
      { kind: 'dismissed', at: 2_300 },
      { kind: 'turn-changes', total: { files: 1, added: 2, removed: 0 }, at: 2_400 },
      { kind: 'process-gone', at: 2_500 },
      { kind: 'process-gone', at: 2_600 },
      { kind: 'recovered', state: 'idle', claudeRunning: true, at: 2_700 },
    ] as const;
    for (const event of events) {
      const before = status.get('tb-1');
      messages.length = 0;
      const after = status.apply('tb-1', event);
      const changed = JSON.stringify({ ...before, usage: null }) !== JSON.stringify({ ...after, usage: null });
      expect(messages, `${event.kind} (changed: ${changed})`).toEqual(changed ? [{ type: 'status:update', tabId: 'tb-1', status: after }] : []);
    }
    await status.dispose();
  });
});
