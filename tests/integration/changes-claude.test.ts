/**
 * Review with the real Claude Code CLI: a Claude tab in a git repository, the stand-in API
 * making edits through Claude's own tools (Edit, Write, Bash's `sed -i`, `rm` and `mv`). Each
 * scope lists exactly those changes through the API and the CLI, and the repository's index,
 * stash and refs are as the person left them.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type ChangesView, ChangesViewSchema, FileDiffSchema } from '../../protocol/changes.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { type ClaudeEnv, prepareClaudeEnv, quickClaudeAgent } from '../support/claude-env.js';
import { api, claim, type Session } from '../support/client.js';
import { bash, FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { eventually } from '../support/eventually.js';
import { PushEndpoint } from '../support/push-endpoint.js';
import { StatusClient } from '../support/status.js';
import { git } from '../support/git.js';


/** Claude may run its tools here without asking: the tests are about what the tools changed. */
const SETTINGS = `${JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash', 'Edit', 'Write', 'Read'] } }, null, 2)}\n`;

describe('changes of a Claude tab, with the real CLI', () => {
  const env = newTestEnvironment();
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let session: Session;
  let repo: string;
  let plain: string;
  let endpoint: PushEndpoint;
  let phoneSub: string;

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    repo = join(env.home, 'repo');
    plain = join(env.home, 'plain');
    for (const dir of [repo, plain]) {
      mkdirSync(join(dir, '.claude'), { recursive: true });
      writeFileSync(join(dir, '.claude', 'settings.json'), SETTINGS);
    }
    repo = realpathSync(repo);
    plain = realpathSync(plain);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'app.ts'), 'export const greeting = "hello";\nexport const answer = 41;\n');
    writeFileSync(join(repo, 'config.txt'), 'mode=slow\nretries=3\n');
    writeFileSync(join(repo, 'gone.txt'), 'obsolete\n');
    writeFileSync(join(repo, 'old-name.md'), '# Notes\n\nnothing new\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'start');
    git(repo, 'tag', 'v1');
    // The person's own work in progress: stashed, and a staged line.
    writeFileSync(join(repo, 'config.txt'), 'mode=slow\nretries=3\n# mine\n');
    git(repo, 'stash', 'push', '-q', '-m', 'the person\u2019s');
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [repo, plain] });
    endpoint = await PushEndpoint.start();
    agent = await startAgent(quickClaudeAgent(env, claude, { env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' } }));
    session = await claim(agent);
    // A phone subscribed to every push, on a push service of the test's own.
    endpoint.agentKey = (await api<{ publicKey: string }>(session, 'GET', '/api/push/key')).body.publicKey;
    const sub = endpoint.subscribe();
    phoneSub = sub.id;
    expect((await api(session, 'POST', '/api/push/subscription', sub.json)).status).toBe(201);
  });

  afterAll(async () => {
    await cleanupAgents();
    await fake?.close();
    await endpoint?.close();
  });

  async function claudeTab(dir: string): Promise<{ tab: TabView; status: StatusClient }> {
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir });
    const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'acceptEdits' } });
    expect(created.status).toBe(201);
    const status = new StatusClient(session);
    await status.opened;
    await status.waitState(created.body.id, 'idle', (s) => s.claudeRunning, 60_000);
    return { tab: created.body, status };
  }

  /** Sends a prompt and waits for the turn it starts to end (a review from an earlier turn is not it). */
  async function prompt(tab: TabView, status: StatusClient, words: string): Promise<void> {
    const seq = status.latest(tab.id)?.seq ?? 0;
    const sent = await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: words });
    expect(sent.status).toBe(204);
    await status.waitState(tab.id, 'ready-for-review', (s) => s.seq > seq + 1, 60_000);
  }

  async function changes(key: string, scope: string): Promise<ChangesView> {
    const res = await api<unknown>(session, 'GET', `/api/changes/${key}?scope=${scope}`);
    expect(res.status).toBe(200);
    return ChangesViewSchema.parse(res.body);
  }

  const person = () => ({ index: readFileSync(join(repo, '.git', 'index')).toString('base64'), stash: git(repo, 'stash', 'list'), refs: git(repo, 'for-each-ref') });

  it('lists each turn, the session and HEAD exactly, and touches nothing of the person\u2019s', async () => {
    const { tab, status } = await claudeTab(repo);
    const before = person();
    fake.enqueue(
      toolUse('Read', { file_path: join(repo, 'app.ts') }),
      toolUse('Edit', { file_path: join(repo, 'app.ts'), old_string: 'answer = 41', new_string: 'answer = 42' }),
      toolUse('Write', { file_path: join(repo, 'notes.md'), content: '# New notes\n\nwritten by Claude\n' }),
      bash(`sed -i 's/mode=slow/mode=fast/' ${join(repo, 'config.txt')}`, 'Speed it up'),
      bash(`rm ${join(repo, 'gone.txt')} && mv ${join(repo, 'old-name.md')} ${join(repo, 'new-name.md')}`, 'Tidy the files'),
      text('Done: five files changed.'),
    );
    await prompt(tab, status, 'make the changes');
    expect(readFileSync(join(repo, 'app.ts'), 'utf8')).toContain('answer = 42');

    const turn = await changes(tab.id, 'turn');
    expect(turn.source).toBe('git');
    expect(turn.files.map((f) => [f.kind, f.path, f.from ?? null, f.added, f.removed])).toEqual([
      ['modified', 'app.ts', null, 1, 1],
      ['modified', 'config.txt', null, 1, 1],
      ['deleted', 'gone.txt', null, 0, 1],
      ['renamed', 'new-name.md', 'old-name.md', 0, 0],
      ['added', 'notes.md', null, 3, 0],
    ]);
    // The turn's total comes on the tab's status too, for the review card.
    const reviewed = await status.waitState(tab.id, 'ready-for-review', (s) => s.turnChanges !== null);
    expect(reviewed.turnChanges).toEqual({ files: 5, added: 5, removed: 3 });
    // The finished turn's notification says it too.
    const pushed = await eventually(async () => endpoint.of(phoneSub).find((p) => p.kind === 'show' && p.title.endsWith('is ready for review')) ?? null, 10_000, 'the review push');
    expect(pushed.kind === 'show' && pushed.body).toBe('Done: five files changed. \u00b7 5 files changed, +5 \u22123');
    const diff = FileDiffSchema.parse((await api(session, 'GET', `/api/changes/${tab.id}/file?scope=turn&path=app.ts`)).body);
    expect(diff.hunks.flatMap((h) => h.lines.filter((l) => l.op !== ' ').map((l) => `${l.op}${l.text}`))).toEqual(['-export const answer = 41;', '+export const answer = 42;']);

    // Turn two changes one more line: the turn shows it alone, the session both turns.
    fake.enqueue(toolUse('Edit', { file_path: join(repo, 'app.ts'), old_string: '"hello"', new_string: '"hi"' }), text('Shorter greeting.'));
    await prompt(tab, status, 'shorter greeting');
    const second = await changes(tab.id, 'turn');
    expect(second.files.map((f) => [f.path, f.added, f.removed])).toEqual([['app.ts', 1, 1]]);
    expect(second.since).toBeGreaterThan(turn.since as number);
    const whole = await changes(tab.id, 'session');
    expect(whole.files.map((f) => f.path)).toEqual(['app.ts', 'config.txt', 'gone.txt', 'new-name.md', 'notes.md']);
    expect(whole.total).toEqual({ files: 5, added: 6, removed: 4 });
    const head = await changes(tab.id, 'head');
    expect(head.head).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(head.files.map((f) => f.path)).toEqual(whole.files.map((f) => f.path));

    // Nothing of the person's moved: the index, the stash, the tags and branches.
    expect(person()).toEqual(before);

    // The CLI says the same.
    const cli = await runCli(['changes', tab.id, '--session', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`this session (since `);
    expect(cli.stdout).toContain(`in ${repo}: 5 files changed, +6 \u22124`);
    expect(cli.stdout).toMatch(/^ {2}R {2}\+0 \u22120 {7}new-name\.md {2}\(from old-name\.md\)$/m);
    const json = await runCli(['changes', tab.id, '--head', '--json', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(ChangesViewSchema.parse(JSON.parse(json.stdout)).files).toEqual(head.files);
    const bad = await runCli(['changes', tab.id, '--turn', '--head', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(bad.code).toBe(2);
  });

  it('outside a repository lists Claude\u2019s own edits from its transcript, saying so, and refuses a bad key, scope or path', async () => {
    writeFileSync(join(plain, 'kept.txt'), 'one\ntwo\nthree\n');
    const { tab, status } = await claudeTab(plain);
    fake.enqueue(
      toolUse('Write', { file_path: join(plain, 'a.txt'), content: 'a\n' }),
      toolUse('Read', { file_path: join(plain, 'kept.txt') }),
      toolUse('Edit', { file_path: join(plain, 'kept.txt'), old_string: 'two', new_string: 'TWO' }),
      bash(`echo by-a-command > ${join(plain, 'by-bash.txt')}`, 'A file made by a command'),
      text('Wrote them.'),
    );
    await prompt(tab, status, 'write the files');
    const turn = await changes(tab.id, 'turn');
    expect(turn).toMatchObject({ source: 'transcript', root: plain, total: { files: 2, added: 2, removed: 1 } });
    // What a command wrote is not in the transcript's edits, and is not listed.
    expect(turn.files.map((f) => [f.kind, f.path, f.added, f.removed])).toEqual([
      ['added', 'a.txt', 1, 0],
      ['modified', 'kept.txt', 1, 1],
    ]);
    const diff = FileDiffSchema.parse((await api(session, 'GET', `/api/changes/${tab.id}/file?scope=turn&path=kept.txt`)).body);
    expect(diff.hunks.flatMap((h) => h.lines.map((l) => `${l.op}${l.old ?? ''}/${l.new ?? ''} ${l.text}`))).toEqual([' 1/1 one', '-2/ two', '+/2 TWO', ' 3/3 three']);

    // Turn two edits the new file: the turn shows it alone, the session both, the new file as added.
    fake.enqueue(toolUse('Edit', { file_path: join(plain, 'a.txt'), old_string: 'a', new_string: 'b' }), text('Changed it.'));
    await prompt(tab, status, 'change a');
    expect((await changes(tab.id, 'turn')).files.map((f) => [f.kind, f.path, f.added, f.removed])).toEqual([['modified', 'a.txt', 1, 1]]);
    const whole = await changes(tab.id, 'session');
    expect(whole.files.map((f) => [f.kind, f.path, f.added, f.removed])).toEqual([
      ['added', 'a.txt', 1, 0],
      ['modified', 'kept.txt', 1, 1],
    ]);
    expect(await changes(tab.id, 'head')).toMatchObject({ source: 'none', reason: 'not in a git repository, so there is no HEAD to compare with' });
    // No total on the card outside git: the turn's end runs no compare there.
    expect(status.latest(tab.id)?.turnChanges).toBeNull();
    // A file goes back as it was before the scope's first edit, and Undo takes that back: an edited one, then a created one.
    const revert = async (scope: string, path: string) => {
      const res = await api<{ restored: string[]; undo: string }>(session, 'POST', `/api/changes/${tab.id}/revert`, { scope, path });
      expect(res.status).toBe(200);
      expect(res.body.restored).toEqual([path]);
      return res.body.undo;
    };
    const undo = async (id: string) => expect((await api(session, 'POST', `/api/changes/${tab.id}/undo`, { undo: id })).status).toBe(200);
    let id = await revert('session', 'kept.txt');
    expect(readFileSync(join(plain, 'kept.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect((await changes(tab.id, 'session')).files.map((f) => f.path)).toEqual(['a.txt']);
    await undo(id);
    expect(readFileSync(join(plain, 'kept.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    id = await revert('session', 'a.txt');
    expect(existsSync(join(plain, 'a.txt'))).toBe(false);
    await undo(id);
    expect(readFileSync(join(plain, 'a.txt'), 'utf8')).toBe('b\n');
    expect((await api(session, 'POST', `/api/changes/${tab.id}/undo`, { undo: id })).status).toBe(409);
    // A file no edit named is not put back; commit needs git.
    expect((await api(session, 'POST', `/api/changes/${tab.id}/revert`, { scope: 'turn', path: 'by-bash.txt' })).status).toBe(409);
    expect((await api(session, 'POST', `/api/changes/${tab.id}/commit`, { paths: ['a.txt'], message: 'no' })).status).toBe(409);
    const cli = await runCli(['changes', tab.id, '--session', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(cli.stdout).toContain(`this session, in ${plain}: 2 files changed, +2 \u22121\n`);
    expect(cli.stdout).toContain('not a git repository: these are Claude\u2019s own edits (Edit, Write), from its transcript');

    expect((await api(session, 'GET', '/api/changes/no-such-tab')).status).toBe(404);
    expect((await api(session, 'GET', '/api/changes/BAD KEY')).status).toBe(400);
    expect((await api(session, 'GET', `/api/changes/${tab.id}?scope=yesterday`)).status).toBe(400);
    expect((await api(session, 'GET', `/api/changes/${tab.id}/file`)).status).toBe(400);
    expect((await api(session, 'GET', `/api/changes/${tab.id}/file?path=a.txt&from=-1`)).status).toBe(400);
    expect((await api(session, 'GET', `/api/changes/${tab.id}/file?path=by-bash.txt`)).status).toBe(409);
  });
});
