import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusServerMessage, type TabStatus } from '../../../../protocol/status.js';
import { SyncServerMessageSchema } from '../../../../protocol/sync-server.js';
import { parseServerMessage, rejectedMessageCount } from '../../../../pwa/core/server-message.js';

const status: TabStatus = {
  state: 'needs-input',
  seq: 3,
  claudeRunning: true,
  compacting: false,
  sessionId: 's-1',
  lastHookAt: 10,
  since: 10,
  transcriptPath: null,
  usage: { model: 'Opus', contextPercent: 12, costUsd: null, fiveHour: { usedPercent: 5, resetsAt: 1700000000 }, sevenDay: null, at: 11 },
  lastMessage: null,
  permissionMode: null,
  turnChanges: null,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseServerMessage', () => {
  it('reads what the agent sends', () => {
    const update = { type: 'status:update', tabId: 'a', status };
    expect(parseServerMessage(StatusServerMessage, JSON.stringify(update), 'status-ok')).toEqual(update);
    const snapshot = {
      type: 'sync:snapshot',
      version: 2,
      workspaces: [
        {
          id: 'w',
          name: 'Home',
          dir: '/home/ada',
          createdAt: '2026-01-01T00:00:00.000Z',
          tabs: [
            { id: 't', workspaceId: 'w', name: null, kind: 'shell', claudeSessionId: null, createdAt: '', cwd: '/', title: { command: 'vim', path: '/' }, alive: true },
          ],
        },
      ],
    };
    // An agent from before outside sessions, guardrails and linked machines sends none of them: no list, no guardrail.
    expect(parseServerMessage(SyncServerMessageSchema, JSON.stringify(snapshot), 'sync-ok')).toEqual({
      ...snapshot,
      workspaces: snapshot.workspaces.map((w) => ({ ...w, guardrail: null })),
      outside: [],
      machines: [],
    });
    expect(rejectedMessageCount('status-ok') + rejectedMessageCount('sync-ok')).toBe(0);
  });

  it('ignores and counts what is not JSON text or fails the schema, and logs only the first of a channel', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bad = [
      new ArrayBuffer(2),
      '{not json',
      'null',
      JSON.stringify({ type: 'status:update', tabId: 'a', status: { ...status, state: 'dancing' } }),
      JSON.stringify({ type: 'status:update', tabId: 'a' }),
      JSON.stringify({ type: 'status:unheard-of' }),
    ];
    for (const data of bad) expect(parseServerMessage(StatusServerMessage, data, 'status-bad')).toBeNull();
    expect(rejectedMessageCount('status-bad')).toBe(bad.length);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(parseServerMessage(SyncServerMessageSchema, JSON.stringify({ type: 'sync:snapshot', version: '2', workspaces: [] }), 'sync-bad')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('keeps the readable tabs of a sync, leaving out one with a state it does not know', () => {
    const sync = { type: 'status:sync', tabs: { a: status, b: { ...status, state: 'dancing' }, c: { seq: 1 } } };
    expect(parseServerMessage(StatusServerMessage, JSON.stringify(sync), 'status-sync')).toEqual({ type: 'status:sync', tabs: { a: status }, approvals: [] });
  });
});
