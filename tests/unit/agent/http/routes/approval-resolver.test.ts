import { describe, expect, it } from 'vitest';
import { CLI_DEVICE } from '../../../../../agent/auth/access.js';
import type { DeviceRecord } from '../../../../../agent/auth/device-store.js';
import { resolverOf } from '../../../../../agent/http/routes/approvals.js';
import { HttpError } from '../../../../../agent/http/routes/handler.js';

const browser: DeviceRecord = { ...CLI_DEVICE, id: 'dev-1', name: 'Pixel 8', platform: 'Android', kind: 'browser' };
const home: DeviceRecord = { ...CLI_DEVICE, id: 'dev-2', name: 'Home box', platform: 'pocketmux', kind: 'machine' };

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('who a decision is recorded as', () => {
  it('is the CLI, or the paired device that made it', () => {
    expect(resolverOf(CLI_DEVICE, undefined)).toEqual({ kind: 'cli', name: null });
    expect(resolverOf(browser, undefined)).toEqual({ kind: 'device', name: 'Pixel 8' });
  });

  it('is the home agent’s device, through it, when a linked home agent says which', () => {
    expect(resolverOf(home, encodeURIComponent('Ada’s iPhone'))).toEqual({ kind: 'device', name: 'Ada’s iPhone via Home box' });
    expect(resolverOf(home, undefined)).toEqual({ kind: 'device', name: 'Home box' });
  });

  it('takes that word only from a linked home agent: a browser cannot name another device', () => {
    expect(resolverOf(browser, encodeURIComponent('Someone else'))).toEqual({ kind: 'device', name: 'Pixel 8' });
  });

  it('refuses a name that is not one, saying why', () => {
    expect(refusal(() => resolverOf(home, '%E0%A4%A')).status).toBe(400);
    const control = refusal(() => resolverOf(home, encodeURIComponent('Pixel\u202e8')));
    expect(control.status).toBe(400);
    expect(control.message).toMatch(/X-Pocketmux-On-Behalf-Of.*must not contain/);
    expect(refusal(() => resolverOf(home, encodeURIComponent('x'.repeat(500)))).status).toBe(400);
    expect(refusal(() => resolverOf(home, '')).status).toBe(400);
  });
});
