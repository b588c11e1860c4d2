import { describe, expect, it } from 'vitest';
import type { OutsideSession, OutsideSessions } from '../../../../agent/outside/outside-sessions.js';
import { type OutsidePane, type OutsideTmux, PaneUnreachableError } from '../../../../agent/outside/outside-tmux.js';
import type { TabService } from '../../../../agent/tabs/tab-service.js';
import type { Tmux } from '../../../../agent/tmux/tmux.js';
import { claudePanes, dialogPanes } from '../../../../agent/wiring/claude-panes.js';

const pane: OutsidePane = { socketPath: '/tmp/their-tmux', serverPid: 1, pane: '%3' };

/** Every call a driver makes, on whichever server it reaches. */
function world() {
  const calls: string[] = [];
  const tabs = {
    tab: (id: string) => (id === 'tb-1' ? { id, tmuxSession: 'pm-tb-1' } : undefined),
    screen: async (id: string) => `screen of ${id}`,
    sendInput: async (id: string, text: string, enter: boolean) => void calls.push(`tab ${id} ${text} ${enter}`),
  } as unknown as TabService;
  const tmux = { pressKey: async (name: string, key: string) => void calls.push(`tmux ${name} ${key}`) } as unknown as Tmux;
  const sessions: Record<string, OutsideSession> = {
    'outside-a': { key: 'outside-a', tmux: pane } as OutsideSession,
    'outside-bare': { key: 'outside-bare', tmux: null } as OutsideSession,
  };
  const outside = { get: (key: string) => sessions[key] } as unknown as OutsideSessions;
  const outsideTmux = {
    capture: async (p: OutsidePane) => `screen of ${p.pane}`,
    type: async (p: OutsidePane, text: string, enter: boolean) => void calls.push(`outside ${p.pane} ${text} ${enter}`),
    sendKey: async (p: OutsidePane, key: string) => void calls.push(`outside ${p.pane} ${key}`),
  } as unknown as OutsideTmux;
  return { calls, panes: claudePanes(tabs, tmux, outside, outsideTmux) };
}

describe('claude panes', () => {
  it("drive a tab key's pane on pocketmux's tmux server", async () => {
    const { calls, panes } = world();
    const tab = panes.of('tb-1');
    expect(tab?.key).toEqual({ kind: 'tab', id: 'tb-1' });
    expect(await tab?.screen()).toBe('screen of tb-1');
    await tab?.type('yes', true);
    await tab?.sendKey('Escape');
    expect(calls).toEqual(['tab tb-1 yes true', 'tmux pm-tb-1 Escape']);
  });

  it("drive an outside key's pane on the person's own tmux server", async () => {
    const { calls, panes } = world();
    const session = panes.of('outside-a');
    expect(session?.key).toEqual({ kind: 'outside', id: 'outside-a' });
    expect(await session?.screen()).toBe('screen of %3');
    await session?.type('2', false);
    await session?.sendKey('Escape');
    expect(calls).toEqual(['outside %3 2 false', 'outside %3 Escape']);
  });

  it('find no pane for a key that names no session', () => {
    const { panes } = world();
    expect(panes.of('tb-gone')).toBeNull();
    expect(panes.of('outside-gone')).toBeNull();
  });

  it('refuse to read or type in an outside session started outside tmux', async () => {
    const { calls, panes } = world();
    const bare = panes.of('outside-bare');
    await expect(bare?.screen()).rejects.toBeInstanceOf(PaneUnreachableError);
    await expect(bare?.type('y', true)).rejects.toBeInstanceOf(PaneUnreachableError);
    expect(calls).toEqual([]);
  });

  it('give the dialogs screens and typing by key, and throw for a key with no session', async () => {
    const { calls, panes } = world();
    const dialogs = dialogPanes(panes);
    expect(await dialogs.screen('outside-a')).toBe('screen of %3');
    await dialogs.sendInput('tb-1', '1', false);
    expect(calls).toEqual(['tab tb-1 1 false']);
    await expect(dialogs.screen('tb-gone')).rejects.toBeInstanceOf(PaneUnreachableError);
  });
});
