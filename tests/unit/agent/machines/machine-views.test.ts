import { describe, expect, it } from 'vitest';
import { answerOf } from '../../../../agent/machines/machine-views.js';
import type { TabView, WorkspaceView } from '../../../../protocol/api.js';
import type { ApprovalResolution } from '../../../../protocol/approvals.js';
import { API_ROUTES } from '../../../../protocol/routes.js';

const M = 'mc-build';

const tab: TabView = {
  id: 'tab-1',
  workspaceId: 'ws-1',
  name: 'api',
  kind: 'claude',
  claudeSessionId: null,
  createdAt: '2026-12-04T10:00:00.000Z',
  cwd: '/srv/api',
  title: null,
  alive: true,
};

const workspace: WorkspaceView = { id: 'ws-1', name: 'api', dir: '/srv/api', createdAt: '2026-12-04T10:00:00.000Z', guardrail: null, tabs: [tab] };

const resolution: ApprovalResolution = { id: 'ap-1', tabId: 'tab-1', outcome: 'approved', by: { kind: 'device', name: 'Pixel 8' }, at: 1, message: null };

describe('a linked machine’s answer, as the home agent passes it on', () => {
  it('names a tab, whether made, renamed or adopted there, under the home agent’s keys', () => {
    for (const route of [API_ROUTES.createTab, API_ROUTES.renameTab, API_ROUTES.adoptOutside]) {
      expect(answerOf(route, M, tab)).toEqual({ ...tab, id: 'mc-build~tab-1', workspaceId: 'mc-build~ws-1' });
    }
  });

  it('names a renamed workspace, its tabs and its machine as the lists do', () => {
    expect(answerOf(API_ROUTES.renameWorkspace, M, workspace)).toEqual({
      ...workspace,
      id: 'mc-build~ws-1',
      machine: M,
      tabs: [{ ...tab, id: 'mc-build~tab-1', workspaceId: 'mc-build~ws-1' }],
    });
  });

  it('names a decision’s approval and session as the inbox does', () => {
    expect(answerOf(API_ROUTES.decideApproval, M, { resolution })).toEqual({ resolution: { ...resolution, id: 'mc-build~ap-1', tabId: 'mc-build~tab-1' } });
  });

  it('names the approval of a refusal that says how it was settled already, its words kept', () => {
    const refused = { error: 'already approved by Pixel 8', resolution };
    expect(answerOf(API_ROUTES.decideApproval, M, refused)).toEqual({ error: refused.error, resolution: { ...resolution, id: 'mc-build~ap-1', tabId: 'mc-build~tab-1' } });
  });

  it('passes a refusal’s words, every other route and every body not of the route’s shape as it came', () => {
    expect(answerOf(API_ROUTES.decideApproval, M, { error: 'already approved' })).toBeNull();
    expect(answerOf(API_ROUTES.renameTab, M, { error: 'no such tab' })).toBeNull();
    expect(answerOf(API_ROUTES.tabMode, M, { mode: 'plan' })).toBeNull();
    expect(answerOf(API_ROUTES.changes, M, { files: [] })).toBeNull();
    expect(answerOf(API_ROUTES.renameTab, M, null)).toBeNull();
    expect(answerOf(API_ROUTES.renameTab, M, { ...tab, id: 7 })).toBeNull();
    expect(answerOf(API_ROUTES.renameWorkspace, M, { ...workspace, tabs: [{ id: 'tab-1' }] })).toBeNull();
    expect(answerOf(API_ROUTES.decideApproval, M, { resolution: { id: 'ap-1' } })).toBeNull();
    // A length that cannot be compared is refused as any other misfit, not thrown.
    expect(answerOf(API_ROUTES.renameTab, M, { ...tab, name: { length: { valueOf: 1 } } })).toBeNull();
  });
});
