import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic, writeJsonAtomic, writeJsonAtomicAsync } from '../../../../agent/store/atomic-file.js';
import { InstanceLock, LockHeldError } from '../../../../agent/store/lock.js';
import { LimitError, WorkspaceStore } from '../../../../agent/store/workspace-store.js';
import { createLogger } from '../../../../agent/util/log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const Schema = z.object({ n: z.number() });
const quietLog = createLogger({ stderr: false });

describe('atomic writes', () => {
  it('writes the whole file, owner-only, and leaves no temp file behind', () => {
    const path = join(dir, 'a.json');
    writeJsonAtomic(path, { n: 1 });
    writeJsonAtomic(path, { n: 2 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ n: 2 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('writes atomically off the event loop too', async () => {
    const path = join(dir, 'async.json');
    await writeJsonAtomicAsync(path, { n: 1 });
    await Promise.all([writeJsonAtomicAsync(path, { n: 2 }), writeJsonAtomicAsync(path, { n: 3 })]);
    expect([2, 3]).toContain((JSON.parse(readFileSync(path, 'utf8')) as { n: number }).n);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['async.json']);
    await expect(writeJsonAtomicAsync(join(dir, 'missing-dir', 'x.json'), {})).rejects.toThrow();
  });

  it('keeps the old content when the write fails', () => {
    const path = join(dir, 'keep.json');
    writeJsonAtomic(path, { n: 1 });
    expect(() => writeFileAtomic(join(dir, 'missing-dir', 'x.json'), 'x')).toThrow();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ n: 1 });
  });
});


describe('reading JSON files through a schema', () => {
  it('reports a missing file as missing', () => {
    expect(readJsonFile(join(dir, 'none.json'), Schema)).toEqual({ status: 'missing' });
  });

  it('reads a valid file', () => {
    writeFileSync(join(dir, 'ok.json'), '{"n":5}');
    expect(readJsonFile(join(dir, 'ok.json'), Schema)).toEqual({ status: 'ok', value: { n: 5 } });
  });

  it('sets a file that is not JSON aside and reports why', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"n": 5');
    const result = readJsonFile(path, Schema);
    expect(result.status).toBe('corrupt');
    if (result.status !== 'corrupt') return;
    expect(result.reason).toMatch(/not valid JSON/);
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(result.setAsideAs, 'utf8')).toBe('{"n": 5');
  });

  it('sets aside a file that fails its schema, naming the field', () => {
    const path = join(dir, 'wrong.json');
    writeFileSync(path, '{"n":"five"}');
    const result = readJsonFile(path, Schema);
    expect(result.status).toBe('corrupt');
    if (result.status === 'corrupt') expect(result.reason).toMatch(/^n: /);
  });
});

describe('workspace store', () => {
  it('persists workspaces and tabs across instances', () => {
    const path = join(dir, 'workspaces.json');
    const a = new WorkspaceStore(path, quietLog);
    expect(a.load()).toBe(false);
    const ws = a.addWorkspace('proj', '/tmp');
    a.addTab({ id: 'tb-1', workspaceId: ws.id, name: null, kind: 'shell', claudeSessionId: null, permissionMode: null, cwd: '/tmp', tmuxSession: `pm_${ws.id}_tb-1` });
    a.renameTab('tb-1', 'server');
    const b = new WorkspaceStore(path, quietLog);
    expect(b.load()).toBe(true);
    expect(b.workspaces().map((w) => w.name)).toEqual(['proj']);
    expect(b.tab('tb-1')?.name).toBe('server');
    b.removeWorkspace(ws.id);
    expect(b.tabs()).toEqual([]);
  });

  it('starts empty, keeping the corrupt file aside, when the file is damaged', () => {
    const path = join(dir, 'workspaces.json');
    writeFileSync(path, '{"version":1,"workspaces":[{"id":"nope"}],"tabs":[]}');
    const store = new WorkspaceStore(path, quietLog);
    expect(store.load()).toBe(true);
    expect(store.workspaces()).toEqual([]);
    expect(readdirSync(dir).some((f) => f.startsWith('workspaces.json.corrupt-'))).toBe(true);
  });

  it('emits change on every mutation', () => {
    const store = new WorkspaceStore(join(dir, 'w.json'), quietLog);
    let changes = 0;
    store.on('change', () => changes++);
    const ws = store.addWorkspace('a', '/');
    store.renameWorkspace(ws.id, 'b');
    store.removeWorkspace(ws.id);
    expect(changes).toBe(3);
  });

  it('refuses a workspace or a tab past its cap, with a message, and changes nothing', () => {
    const path = join(dir, 'w.json');
    const store = new WorkspaceStore(path, quietLog, { workspaces: 1, tabs: 1 });
    const ws = store.addWorkspace('a', '/');
    const tab = { workspaceId: ws.id, name: null, kind: 'shell' as const, claudeSessionId: null, permissionMode: null, cwd: '/' };
    store.addTab({ ...tab, id: 'tb-1', tmuxSession: 'one' });
    const saved = readFileSync(path, 'utf8');
    expect(() => store.addWorkspace('b', '/')).toThrow(LimitError);
    expect(() => store.addWorkspace('b', '/')).toThrow(/at most 1 workspaces/);
    expect(() => store.addTab({ ...tab, id: 'tb-2', tmuxSession: 'two' })).toThrow(/at most 1 tabs/);
    expect(readFileSync(path, 'utf8')).toBe(saved);
    expect([store.workspaces().length, store.tabs().length]).toEqual([1, 1]);
  });
});


describe('single-instance lock', () => {
  it('refuses a second holder while the first is alive, naming its pid', () => {
    const path = join(dir, 'agent.lock');
    // A live process other than us holds the lock.
    writeFileSync(path, `${process.ppid}\n`);
    expect(() => InstanceLock.acquire(path)).toThrow(LockHeldError);
    try {
      InstanceLock.acquire(path);
    } catch (err) {
      expect((err as LockHeldError).pid).toBe(process.ppid);
    }
  });

  it('reclaims an empty or garbled lock file', () => {
    const path = join(dir, 'agent.lock');
    for (const left of ['', 'garbage']) {
      writeFileSync(path, left);
      // Reclaimed: the lock is taken, and the file now names this process.
      const lock = InstanceLock.acquire(path);
      expect(readFileSync(path, 'utf8').trim(), JSON.stringify(left)).toBe(String(process.pid));
      lock.dispose();
      expect(existsSync(path)).toBe(false);
    }
  });
});
