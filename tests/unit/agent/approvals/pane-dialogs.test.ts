import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TabStatus } from '../../../../protocol/status.js';
import { ApprovalStore, type ApprovalRequest } from '../../../../agent/approvals/approval-store.js';
import { PANE_DIALOG_TIMINGS, PaneDialogs } from '../../../../agent/approvals/pane-dialogs.js';
import { initialStatus } from '../../../../agent/status/reducer.js';
import { createLogger } from '../../../../agent/util/log.js';
import { eventually } from '../../../support/eventually.js';

const PLAN_SCREEN = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332', 'ask-user-question', 'pane-exit-plan-mode.txt'), 'utf8');
const log = createLogger({ stderr: false });

const planRequest: ApprovalRequest = {
  tabId: 'tb-1',
  sessionId: 's-1',
  kind: 'plan',
  tool: 'ExitPlanMode',
  summary: { title: 'Exit plan mode?', description: null, body: null, diff: null, path: null },
  questions: [],
  questionKeys: [],
  options: [],
  alwaysAllow: null,
  toolInput: {},
  suggestions: [],
};

describe('PaneDialogs', () => {
  it('offers a plan once: the poll does not add a second card while the plan is being read', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    const notAsked = () => undefined;
    let planRead: (plan: string) => void = notAsked;
    const dialogs = new PaneDialogs(
      { screen: async () => PLAN_SCREEN, sendInput: async () => undefined },
      store,
      () => waiting,
      log,
      () => new Promise<string | null>((resolve) => {
        planRead = resolve;
      }),
      { ...PANE_DIALOG_TIMINGS, keyRetryMs: 10 },
    );
    const offered = dialogs.offer(planRequest);
    // The tab waits on the person with no approval open yet (the plan is being read): what the poll looks for.
    await eventually(() => planRead !== notAsked, 5_000, 'the plan to be asked for');
    await dialogs.poll();
    expect(store.list()).toEqual([]);
    planRead('Step 1: rename the button.');
    const plan = await offered;
    await dialogs.poll();
    expect(store.list()).toEqual([plan]);
    expect(plan).toMatchObject({ kind: 'plan', summary: { body: 'Step 1: rename the button.' }, options: [{ key: '1' }, { key: '2', label: 'No' }] });
  });

  it('offers a dialog it finds on the screen of a waiting tab with nothing open', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    const dialogs = new PaneDialogs({ screen: async () => PLAN_SCREEN, sendInput: async () => undefined }, store, () => waiting, log);
    await dialogs.poll();
    await dialogs.poll();
    expect(store.list()).toHaveLength(1);
    expect(store.list()[0]).toMatchObject({ kind: 'dialog', tool: null, summary: { title: 'Exit plan mode?' } });
  });

  it('offers no dialog that leaves the screen a moment after it was seen: one just answered in the terminal', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    // The dialog is still drawn at the first look; claude has redrawn by the next.
    const screens = [PLAN_SCREEN, '❯ \n'];
    const dialogs = new PaneDialogs(
      { screen: async () => screens.shift() ?? '❯ \n', sendInput: async () => undefined },
      store,
      () => waiting,
      log,
      async () => null,
      { ...PANE_DIALOG_TIMINGS, keyRetryMs: 10 },
    );
    await dialogs.poll();
    expect(screens).toEqual([]);
    expect(store.list()).toEqual([]);
  });
});
