import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Approval } from '../../../../protocol/approvals.js';
import type { MachineSummary } from '../../../../protocol/machine-key.js';
import type { TabStatus } from '../../../../protocol/status.js';
import { type MachineAnnouncer, MachinePushes } from '../../../../agent/machines/machine-pushes.js';
import type { UnionEvents } from '../../../../agent/machines/machine-union.js';
import { initialStatus } from '../../../../agent/status/reducer.js';
import { createLogger } from '../../../../agent/util/log.js';
import { eventually } from '../../../support/eventually.js';

const log = createLogger({ stderr: false });
const M = 'mc-build';
const TAB = `${M}~tb-1`;

/** The union as MachinePushes reads it: what the followers know now, and its events. */
class Union extends EventEmitter<UnionEvents> {
  reach: MachineSummary['reach'] = 'ok';
  linked = true;
  open: Approval[] = [];
  states: Record<string, TabStatus> = {};
  machines(): MachineSummary[] {
    return this.linked ? [{ id: M, name: 'Build box', reach: this.reach, since: 0, problem: null }] : [];
  }
  approvals(): Approval[] {
    return this.open;
  }
  tabs(): Record<string, TabStatus> {
    return this.states;
  }
}

function approval(id: string, extra: Partial<Approval> = {}): Approval {
  return {
    id: `${M}~${id}`,
    tabId: TAB,
    sessionId: null,
    kind: 'permission',
    tool: 'Bash',
    summary: { title: 'Bash: ls', description: null, body: 'ls', diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: null,
    createdAt: 1,
    expiresAt: 2,
    denyAt: null,
    machine: M,
    ...extra,
  };
}

function tab(state: TabStatus['state'], since: number): TabStatus {
  return { ...initialStatus(since), state, claudeRunning: true };
}

describe('MachinePushes', () => {
  let dir: string;
  let union: Union;
  let said: string[];
  const announcer: MachineAnnouncer = {
    approval: (a) => said.push(`approval ${a.id}`),
    needsInput: (key) => said.push(`needs-input ${key}`),
    review: (key) => said.push(`review ${key}`),
    approvalSettled: (id) => said.push(`settled ${id}`),
    tabMovedOn: (key) => said.push(`moved-on ${key}`),
  };
  const open = (settleMs = 0) => new MachinePushes(union, announcer, join(dir, 'machine-pushes.json'), log, settleMs);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-machine-pushes-'));
    union = new Union();
    said = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('notes what waits on a machine seen for the first time without pushing it, then pushes what is new, once', async () => {
    const pushes = open();
    union.open = [approval('ap-old')];
    union.states = { [TAB]: tab('needs-input', 10) };
    pushes.look();
    expect(said).toEqual([]);
    union.open = [approval('ap-old'), approval('ap-new')];
    pushes.look();
    pushes.look();
    expect(said).toEqual([`approval ${M}~ap-new`]);
    await pushes.dispose();
  });

  it('pushes nothing twice across its own restart, and what began while it was down once', async () => {
    union.open = [approval('ap-1')];
    const linked = open();
    linked.look();
    await linked.dispose();
    union.open = [approval('ap-1'), approval('ap-2')];
    const first = open();
    first.look();
    await first.dispose();
    expect(said).toEqual([`approval ${M}~ap-2`]);
    union.states = { [TAB]: tab('ready-for-review', 20) };
    const again = open();
    again.look();
    expect(said).toEqual([`approval ${M}~ap-2`, `review ${TAB}`]);
    await again.dispose();
    const last = open();
    last.look();
    expect(said).toHaveLength(2);
    await last.dispose();
  });

  it('writes what it pushed a moment later, off the event loop, without a stop', async () => {
    const path = join(dir, 'machine-pushes.json');
    const pushes = open();
    pushes.look();
    union.open = [approval('ap-1')];
    pushes.look();
    expect(said).toEqual([`approval ${M}~ap-1`]);
    await eventually(() => existsSync(path) && JSON.parse(readFileSync(path, 'utf8')).machines[M]?.approvals.includes(`${M}~ap-1`), 5_000, 'the push written');
    await pushes.dispose();
  });

  it('leaves out an approval the machine offered quietly, and a wait an approval tells of', async () => {
    const pushes = open();
    pushes.look();
    union.open = [approval('ap-quiet', { quiet: true })];
    union.states = { [TAB]: tab('needs-input', 30) };
    pushes.look();
    expect(said).toEqual([]);
    // The approval answered, the same wait goes on: it began with the approval, and is not new.
    union.open = [];
    pushes.look();
    expect(said).toEqual([]);
    // A new wait with nothing to approve (a question in the terminal) is pushed.
    union.states = { [TAB]: tab('needs-input', 40) };
    pushes.look();
    expect(said).toEqual([`needs-input ${TAB}`]);
    await pushes.dispose();
  });

  it('looks only at a machine that answers, and forgets one unlinked', async () => {
    const path = join(dir, 'machine-pushes.json');
    const pushes = open();
    pushes.look();
    union.reach = 'unreachable';
    union.open = [approval('ap-late')];
    pushes.look();
    expect(said).toEqual([]);
    union.reach = 'ok';
    pushes.look();
    expect(said).toEqual([`approval ${M}~ap-late`]);
    union.linked = false;
    pushes.look();
    await pushes.dispose();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, machines: {} });
  });

  it('looks right after an approval opens, not in the turn that tells the phones, and closes what was settled or moved on as the union says so', async () => {
    const pushes = open();
    pushes.look();
    union.open = [approval('ap-9')];
    union.emit('status', { type: 'approval-opened', approval: approval('ap-9') });
    expect(said).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(said).toEqual([`approval ${M}~ap-9`]);
    union.emit('status', { type: 'approval-resolved', resolution: { id: `${M}~ap-9`, tabId: TAB, outcome: 'approved', by: { kind: 'device', name: 'Pixel' }, at: 3, message: null } });
    union.emit('status', { type: 'status:update', tabId: TAB, status: tab('busy', 50) });
    union.emit('status', { type: 'status:removed', tabId: TAB });
    expect(said.slice(1)).toEqual([`settled ${M}~ap-9`, `moved-on ${TAB}`, `moved-on ${TAB}`]);
    await pushes.dispose();
  });

  it('pushes a wait with nothing to approve once it lasted, and never one its approval came to tell of', async () => {
    const pushes = open(100);
    pushes.look();
    // A PermissionRequest: the wait first, its approval a moment later.
    union.states = { [TAB]: tab('needs-input', 60) };
    union.emit('status', { type: 'status:update', tabId: TAB, status: union.states[TAB] as TabStatus });
    union.open = [approval('ap-10')];
    union.emit('status', { type: 'approval-opened', approval: approval('ap-10') });
    // A question in the terminal on another session: nothing comes to tell of it.
    const other = `${M}~tb-2`;
    union.states = { ...union.states, [other]: tab('needs-input', 70) };
    union.emit('status', { type: 'status:update', tabId: other, status: union.states[other] as TabStatus });
    await eventually(() => said.includes(`needs-input ${other}`), 5_000, 'the wait pushed once it lasted');
    expect(said).toEqual([`approval ${M}~ap-10`, `needs-input ${other}`]);
    await pushes.dispose();
  });

  it('reads a file that is not its own as nothing pushed, notes what waits, and writes a good one', async () => {
    const path = join(dir, 'machine-pushes.json');
    writeFileSync(path, '{"version":1,"machines":{"mc-build":{"approvals":"not a list"}}}');
    union.open = [approval('ap-1')];
    const pushes = open();
    pushes.look();
    await pushes.dispose();
    expect(said).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8')).machines[M].approvals).toEqual([`${M}~ap-1`]);
  });
});
