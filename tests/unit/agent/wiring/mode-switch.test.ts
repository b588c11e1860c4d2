import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModeSwitchError, switchMode } from '../../../../agent/wiring/mode-switch.js';
import type { ClaudeMode } from '../../../../protocol/claude-mode.js';
import { createLogger } from '../../../../agent/util/log.js';

const DIALOGS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332', 'dialogs');
const screenIn: Partial<Record<ClaudeMode, string>> = {
  manual: readFileSync(join(DIALOGS, 'pane-mode-manual.txt'), 'utf8'),
  'accept-edits': readFileSync(join(DIALOGS, 'pane-mode-accept-edits.txt'), 'utf8'),
  plan: readFileSync(join(DIALOGS, 'pane-mode-plan.txt'), 'utf8'),
  auto: readFileSync(join(DIALOGS, 'pane-mode-auto.txt'), 'utf8'),
  bypass: readFileSync(join(DIALOGS, 'pane-mode-bypass.txt'), 'utf8'),
};
const log = createLogger({ stderr: false });
const FAST = { settleMs: 50, lookMs: 1 };

/** Claude's footer cycling on Shift+Tab through `cycle`, dropping the presses listed in `drop` (by number). */
function cyclingPane(cycle: ClaudeMode[], drop: number[] = []) {
  let at = 0;
  let presses = 0;
  const shown: ClaudeMode[] = [];
  return {
    shown,
    presses: () => presses,
    panes: {
      screen: async () => screenIn[cycle[at] as ClaudeMode] as string,
      pressKey: async (_key: string, name: string) => {
        expect(name).toBe('BTab');
        if (drop.includes(++presses)) return;
        at = (at + 1) % cycle.length;
        shown.push(cycle[at] as ClaudeMode);
      },
    },
  };
}

describe('switchMode', () => {
  it('presses Shift+Tab until the footer shows the mode, pressing again when a press was not taken', async () => {
    const pane = cyclingPane(['manual', 'accept-edits', 'plan', 'auto'], [2]);
    expect(await switchMode(pane.panes, 'tb-1', 'plan', { confirm: false, log, timings: FAST })).toBe('plan');
    expect(pane.shown).toEqual(['accept-edits', 'plan']);
    expect(pane.presses()).toBe(3);
  });

  it('leaves bypass at once when a switch passes it, and chooses it only with a confirmation', async () => {
    const pane = cyclingPane(['plan', 'bypass', 'auto', 'manual', 'accept-edits']);
    expect(await switchMode(pane.panes, 'tb-1', 'auto', { confirm: false, log, timings: FAST })).toBe('auto');
    expect(pane.shown).toEqual(['bypass', 'auto']);
    await expect(switchMode(pane.panes, 'tb-1', 'bypass', { confirm: false, log, timings: FAST })).rejects.toMatchObject({ status: 400 });
    expect(await switchMode(pane.panes, 'tb-1', 'bypass', { confirm: true, log, timings: FAST })).toBe('bypass');
  });

  it('says which modes the session has when the one asked for is not among them, and leaves it where it was', async () => {
    const pane = cyclingPane(['manual', 'accept-edits', 'plan', 'auto'], [3]);
    const err = await switchMode(pane.panes, 'tb-1', 'dont-ask', { confirm: false, log, timings: FAST }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModeSwitchError);
    expect(err).toMatchObject({ status: 409, message: "Don't ask is not among this session's modes (Manual, Accept edits, Plan, Auto)" });
    // Once round the cycle (a dropped press pressed again), and back at manual.
    expect(pane.shown).toEqual(['accept-edits', 'plan', 'auto', 'manual']);
  });

  it('waits out a footer being redrawn before it reads the mode', async () => {
    const pane = cyclingPane(['manual', 'accept-edits', 'plan', 'auto']);
    let blank = 3;
    const panes = { ...pane.panes, screen: async () => (blank-- > 0 ? '' : pane.panes.screen()) };
    expect(await switchMode(panes, 'tb-1', 'plan', { confirm: false, log, timings: FAST })).toBe('plan');
  });

  it('refuses while a dialog is up, and presses nothing', async () => {
    let presses = 0;
    const panes = {
      screen: async () => readFileSync(join(DIALOGS, 'pane-startup-auto-mode-offer.txt'), 'utf8'),
      pressKey: async () => {
        presses++;
      },
    };
    await expect(switchMode(panes, 'tb-1', 'plan', { confirm: false, log, timings: FAST })).rejects.toMatchObject({ status: 409, message: 'Claude is showing a dialog: answer it first' });
    expect(presses).toBe(0);
  });
});
