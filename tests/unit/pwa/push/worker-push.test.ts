import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../../../protocol/push.js';
import { notificationFor, outcomeLine, readPush } from '../../../../pwa/push/worker-push.js';

const show: Extract<PushPayload, { kind: 'show' }> = {
  v: 1,
  kind: 'show',
  tag: 'ap-1',
  title: 'Bash: npm test',
  body: 'Run the tests\nHome · api',
  url: '/?approval=ap-1',
  approvalId: 'ap-1',
  actions: [
    { action: 'approve', title: 'Approve', decision: { decision: 'allow' } },
    { action: 'deny', title: 'Deny', decision: { decision: 'deny' } },
  ],
};

describe('the service worker’s push handling', () => {
  it('reads only what the agent sends', () => {
    expect(readPush(JSON.stringify(show))).toEqual(show);
    expect(readPush(JSON.stringify({ v: 1, kind: 'close', tag: 'ap-1' }))).toEqual({ v: 1, kind: 'close', tag: 'ap-1' });
    for (const junk of [null, undefined, '', 'not json', '{}', JSON.stringify({ ...show, v: 2 }), JSON.stringify({ ...show, url: 'https://evil.test/' })]) {
      expect(readPush(junk), String(junk)).toBeNull();
    }
  });

  it('shows an approval with its buttons, kept until answered, and remembers each button’s decision', () => {
    const { title, options } = notificationFor(show);
    expect(title).toBe('Bash: npm test');
    expect(options).toMatchObject({ body: 'Run the tests\nHome · api', tag: 'ap-1', requireInteraction: true, renotify: true });
    expect(options.actions).toEqual([
      { action: 'approve', title: 'Approve' },
      { action: 'deny', title: 'Deny' },
    ]);
    expect(options.data).toEqual({ url: '/?approval=ap-1', approvalId: 'ap-1', title: 'Bash: npm test', decisions: { approve: { decision: 'allow' }, deny: { decision: 'deny' } } });
    expect(notificationFor({ ...show, approvalId: null, actions: [] }).options.requireInteraction).toBe(false);
  });

  it('says how a button press went', () => {
    expect(outcomeLine(200, { resolution: { outcome: 'approved' } }, 'Bash: npm test')).toBe('Approved · Bash: npm test');
    expect(outcomeLine(200, { resolution: { outcome: 'denied' } }, 'Bash: npm test')).toBe('Denied · Bash: npm test');
    expect(outcomeLine(409, { error: 'already answered in the terminal' }, 'x')).toBe('Already answered in the terminal');
    expect(outcomeLine(401, null, 'x')).toBe('This device is no longer paired: open pocketmux');
    expect(outcomeLine(0, null, 'x')).toBe('Could not answer (pocketmux is unreachable): open pocketmux');
    expect(outcomeLine(200, { resolution: { outcome: 'made-up' } }, 'x')).toBe('Could not answer (HTTP 200): open pocketmux');
  });
});
