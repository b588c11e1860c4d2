import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userHooksView } from '../../../../agent/wiring/user-hooks-view.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-user-hooks-view-'));
  mkdirSync(join(dir, 'claude'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the user hooks view', () => {
  it('says none are installed when Claude has no user settings, with the command naming this data dir', () => {
    const view = userHooksView(join(dir, 'claude'), join(dir, 'data'));
    expect(view).toMatchObject({ state: 'none', settingsPath: join(dir, 'claude', 'settings.json'), detail: null });
    expect(view.installCommand).toContain('hooks install');
    expect(view.installCommand).toContain(join(dir, 'data'));
  });

  it('says it cannot tell, and why, when the settings cannot be read', () => {
    writeFileSync(join(dir, 'claude', 'settings.json'), '{ not json');
    const view = userHooksView(join(dir, 'claude'), join(dir, 'data'));
    expect(view.state).toBe('unknown');
    expect(view.detail).toEqual(expect.any(String));
    expect(view.settingsPath).toBe(join(dir, 'claude', 'settings.json'));
  });
});
