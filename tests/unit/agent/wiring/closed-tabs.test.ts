import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { forgetClosedTabs } from '../../../../agent/wiring/closed-tabs.js';

function world(tabIds: string[], statusKeys: string[]) {
  const tabs = Object.assign(new EventEmitter<{ change: [] }>(), { open: new Set(tabIds), tab: (id: string) => (tabs.open.has(id) ? ({} as never) : undefined) });
  const keys = new Set(statusKeys);
  const status = { snapshot: () => Object.fromEntries([...keys].map((k) => [k, {} as never])), forget: (key: string) => void keys.delete(key) };
  const rule = forgetClosedTabs(status, tabs);
  return { tabs, keys, rule };
}

describe('closed tabs', () => {
  it("forget a closed tab's status when the tabs change, and keep open tabs' and outside sessions'", () => {
    const { tabs, keys } = world(['tb-1', 'tb-2'], ['tb-1', 'tb-2', 'outside-a']);
    tabs.open.delete('tb-2');
    tabs.emit('change');
    expect([...keys].sort()).toEqual(['outside-a', 'tb-1']);
  });

  it('once disposed, forget nothing', async () => {
    const { tabs, keys, rule } = world(['tb-1'], ['tb-1']);
    await rule.dispose();
    tabs.open.clear();
    tabs.emit('change');
    expect([...keys]).toEqual(['tb-1']);
  });
});
