import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { StatusServerMessage } from '../../../../protocol/status.js';
import { forgetDialogsWithStatus } from '../../../../agent/wiring/forgotten-dialogs.js';

function world() {
  const status = new EventEmitter<{ message: [StatusServerMessage] }>();
  const forgotten: string[] = [];
  const rule = forgetDialogsWithStatus(status, { forget: (key) => void forgotten.push(key) });
  return { status, forgotten, rule };
}

describe('forgotten dialogs', () => {
  it('forget what the dialog poll kept of a tab or an outside session whose status goes, and nothing else', () => {
    const { status, forgotten } = world();
    status.emit('message', { type: 'status:removed', tabId: 'tb-1' });
    status.emit('message', { type: 'status:removed', tabId: 'outside-a' });
    status.emit('message', { type: 'status:hook-event', hook: { tabId: 'tb-2', event: 'Stop', seq: 1, at: 0, detail: null } } as StatusServerMessage);
    expect(forgotten).toEqual(['tb-1', 'outside-a']);
  });

  it('once disposed, forget nothing', async () => {
    const { status, forgotten, rule } = world();
    await rule.dispose();
    status.emit('message', { type: 'status:removed', tabId: 'tb-1' });
    expect(forgotten).toEqual([]);
  });
});
