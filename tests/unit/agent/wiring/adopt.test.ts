import { describe, expect, it } from 'vitest';
import { workspaceFor } from '../../../../agent/wiring/adopt.js';
import type { WorkspaceRecord } from '../../../../agent/store/workspace-store.js';

const ws = (id: string, dir: string): WorkspaceRecord => ({ id, name: id, dir, createdAt: '', guardrail: null });

describe('the workspace an adopted session goes to', () => {
  const home = '/home/ada';
  const all = [ws('ws-home', home), ws('ws-root', '/'), ws('ws-code', '/home/ada/code'), ws('ws-app', '/home/ada/code/app/')];

  it('is the workspace of its directory', () => {
    expect(workspaceFor(all, '/home/ada/code/app', home)?.id).toBe('ws-app');
    expect(workspaceFor(all, home, home)?.id).toBe('ws-home');
  });

  it('else the deepest workspace that holds it', () => {
    expect(workspaceFor(all, '/home/ada/code/app/packages/ui', home)?.id).toBe('ws-app');
    expect(workspaceFor(all, '/home/ada/code/lib', home)?.id).toBe('ws-code');
  });

  it('never the home directory or / as a catch-all: none, so one is made for the directory', () => {
    expect(workspaceFor(all, '/home/ada/notes', home)).toBeNull();
    expect(workspaceFor(all, '/srv/site', home)).toBeNull();
  });

  it('does not take a sibling with a common prefix for a parent', () => {
    expect(workspaceFor([ws('ws-app', '/home/ada/code/app')], '/home/ada/code/app2', home)).toBeNull();
  });
});
