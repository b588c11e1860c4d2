import { describe, expect, it } from 'vitest';
import type { OutsideSession, OutsideSessions } from '../../../../agent/outside/outside-sessions.js';
import { type OutsidePane, type OutsideTmux, PaneUnreachableError } from '../../../../agent/outside/outside-tmux.js';
import type { TabService } from '../../../../agent/tabs/tab-service.js';
import type { Tmux } from '../../../../agent/tmux/tmux.js';
import { claudePanes, dialogPanes, paneActivity } from '../../../../agent/wiring/claude-panes.js';

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

describe('pane activity', () => {
  /** Tabs on the agent's server and outside sessions on two servers of the person's, each listing counted. */
  function servers(fail: string[] = []) {
    const asked: string[] = [];
    const tabs = {
      activity: async () => {
        asked.push('pocketmux');
        return new Map([
          ['tb-1', 100],
          ['tb-2', 200],
        ]);
      },
    };
    const sessions: Record<string, Partial<OutsideSession>> = {
      'outside-a': { tmux: { socketPath: '/tmp/one', serverPid: 1, pane: '%3' } },
      'outside-b': { tmux: { socketPath: '/tmp/one', serverPid: 1, pane: '%4' } },
      'outside-c': { tmux: { socketPath: '/tmp/two', serverPid: 2, pane: '%3' } },
      'outside-bare': { tmux: null },
    };
    const outside = { get: (key: string) => sessions[key] as OutsideSession | undefined };
    const outsideTmux = {
      paneActivity: async (socketPath: string) => {
        asked.push(socketPath);
        if (fail.includes(socketPath)) throw new PaneUnreachableError('its tmux server is gone');
        return socketPath === '/tmp/one'
          ? new Map([
              ['%3', 300],
              ['%4', 400],
            ])
          : new Map([['%3', 500]]);
      },
    };
    return { asked, activity: paneActivity(tabs, outside, outsideTmux) };
  }

  it('asks each server once, for the sessions asked about, by their panes', async () => {
    const { asked, activity } = servers();
    expect(await activity(['tb-1', 'outside-a', 'outside-b', 'outside-c', 'outside-bare', 'outside-gone'])).toEqual(
      new Map([
        ['tb-1', 100],
        ['outside-a', 300],
        ['outside-b', 400],
        ['outside-c', 500],
      ]),
    );
    expect(asked).toEqual(['pocketmux', '/tmp/one', '/tmp/two']);
  });

  it("asks no server none of whose sessions is asked about, and leaves out a server's sessions when it cannot be asked", async () => {
    const { asked, activity } = servers(['/tmp/one']);
    expect(await activity(['outside-a', 'outside-c'])).toEqual(new Map([['outside-c', 500]]));
    expect(asked).toEqual(['/tmp/one', '/tmp/two']);
  });

  it('goes with the panes the dialogs read', async () => {
    const { activity } = servers();
    const dialogs = dialogPanes(world().panes, activity);
    expect(await dialogs.activity?.(['tb-2'])).toEqual(new Map([['tb-2', 200]]));
    expect(dialogPanes(world().panes).activity).toBeUndefined();
  });
});
