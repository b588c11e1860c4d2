/**
 * What the timeline's composer needs without a terminal, against a real agent: Escape pressed
 * in a pane (in order with typed text; in a real Claude tab it interrupts a streamed answer),
 * the session's slash commands (built-in, the project's, the user's), and files uploaded into
 * the session's directory, with every bound and refusal.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import type {
  ApiError,
  SlashCommandsResponse,
  TabView,
  UploadResponse,
  WorkspaceView,
} from '../../protocol/api.js';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import type { OutsideSessionsResponse } from '../../protocol/outside.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, claim, createTab, recordTypedText, type Session, deviceHeaders } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, slow } from '../support/fake-anthropic.js';
import { runHookScript } from '../support/hook-script.js';
import { claudeStandIn } from '../support/claude-stand-in.js';
import { TmuxServer } from '../support/tmux-server.js';
import { capturedHook, StatusClient } from '../support/status.js';

let fake: FakeAnthropic;
let claude: ClaudeEnv;
let agent: AgentHandle;
let phone: Session;
let project: string;
let workspace: WorkspaceView;
const env = newTestEnvironment();
const own = TmuxServer.named('own');

beforeAll(async () => {
  fake = await FakeAnthropic.start();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  project = realpathSync(join(env.home, 'project'));
  claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
  phone = await claim(agent, 'Pixel 8');
  workspace = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project })).body;
});

afterAll(async () => {
  await own.stop();
  await cleanupAgents();
  await fake?.close();
});

/** A shell tab in a workspace of its own directory (made under HOME). */
async function shellTabIn(name: string): Promise<{ tab: TabView; dir: string }> {
  const dir = join(env.home, name);
  mkdirSync(dir, { recursive: true });
  const ws = await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir });
  return { tab: await createTab(phone, ws.body.id), dir: realpathSync(dir) };
}

/** POSTs a raw body as the composer does, with the file name header percent-encoded. */
async function upload(
  path: string,
  body: BodyInit,
  opts: { name?: string | null; rawName?: string; device?: Session | null; type?: string } = {},
): Promise<{ status: number; body: UploadResponse & ApiError }> {
  const headers: Record<string, string> = { 'content-type': opts.type ?? 'application/octet-stream' };
  if (opts.device !== null) Object.assign(headers, deviceHeaders(opts.device ?? phone, 'POST', path));
  if (opts.rawName !== undefined) headers[UPLOAD_FILENAME_HEADER] = opts.rawName;
  else if (opts.name !== null) headers[UPLOAD_FILENAME_HEADER] = encodeURIComponent(opts.name ?? 'file.bin');
  const res = await fetch(new URL(path, agent.url), { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const uploadsIn = (dir: string) => join(dir, '.pocketmux', 'uploads');
const listUploads = (dir: string) => (existsSync(uploadsIn(dir)) ? readdirSync(uploadsIn(dir)).sort() : []);

describe('Escape in a pane', () => {
  it('reaches a shell tab after the text typed before it, and before the text after it', async () => {
    const { tab, dir } = await shellTabIn('keys');
    const file = join(dir, 'typed.txt');
    await recordTypedText(phone, tab.id, file);
    expect((await api(phone, 'POST', `/api/tabs/${tab.id}/input`, { text: 'before', enter: false })).status).toBe(204);
    expect((await api(phone, 'POST', `/api/tabs/${tab.id}/keys`, { key: 'Escape' })).status).toBe(204);
    expect((await api(phone, 'POST', `/api/tabs/${tab.id}/input`, { text: 'after', enter: true })).status).toBe(204);
    await eventually(() => readFileSync(file, 'utf8').endsWith('\n'), 10_000, 'the line in the file');
    expect(readFileSync(file, 'utf8')).toBe('before\x1bafter\n');
  });

  it('takes only a known key, and only for a known tab', async () => {
    const { tab } = await shellTabIn('keys-refused');
    for (const body of [{ key: 'Enter' }, { key: 'C-c' }, { key: 'Escape', extra: 1 }, {}, { key: ['Escape'] }]) {
      const res = await api<ApiError>(phone, 'POST', `/api/tabs/${tab.id}/keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api(phone, 'POST', '/api/tabs/tb-nope/keys', { key: 'Escape' })).status).toBe(404);
    expect((await api(phone, 'POST', '/api/tabs/NOT%20AN%20ID/keys', { key: 'Escape' })).status).toBe(400);
    expect((await api(phone, 'POST', '/api/outside/outside-nope/keys', { key: 'Escape' })).status).toBe(404);
  });
});

describe('slash commands', () => {
  it('lists the project commands, then the user commands, then the built-in ones', async () => {
    const commands = join(project, '.claude', 'commands');
    mkdirSync(join(commands, 'frontend'), { recursive: true });
    writeFileSync(join(commands, 'frontend', 'review.md'), '---\ndescription: Review the UI changes\nallowed-tools: Bash\n---\nReview $ARGUMENTS\n');
    writeFileSync(join(commands, 'deploy.md'), '\nDeploy to staging\n\nThen check the logs.\n');
    writeFileSync(join(commands, 'compact.md'), 'The project compacts its own way\n');
    writeFileSync(join(commands, 'evil\u202egpj.md'), 'hostile name\n');
    writeFileSync(join(commands, '$(touch pwned).md'), 'hostile name\n');
    writeFileSync(join(commands, 'bidi-desc.md'), '---\ndescription: "looks \u202eesrever"\n---\n');
    mkdirSync(join(env.home, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(env.home, '.claude', 'commands', 'standup.md'), '---\ndescription: Write my standup notes\n---\nSummarise yesterday.\n');
    writeFileSync(join(env.home, '.claude', 'commands', 'deploy.md'), 'The user deploy, hidden by the project one\n');

    const tab = await createTab(phone, workspace.id);
    const res = await api<SlashCommandsResponse>(phone, 'GET', `/api/tabs/${tab.id}/commands`);
    expect(res.status).toBe(200);
    const listed = res.body.commands;
    const custom = listed.filter((c) => c.source !== 'builtin');
    expect(custom).toEqual([
      { name: 'bidi-desc', description: 'looks \\u202eesrever', source: 'project' },
      { name: 'compact', description: 'The project compacts its own way', source: 'project' },
      { name: 'deploy', description: 'Deploy to staging', source: 'project' },
      { name: 'frontend:review', description: 'Review the UI changes', source: 'project' },
      { name: 'standup', description: 'Write my standup notes', source: 'user' },
    ]);
    // Built-ins follow, a name only once.
    expect(listed.slice(custom.length).every((c) => c.source === 'builtin')).toBe(true);
    expect(listed.map((c) => c.name)).toEqual(expect.arrayContaining(['clear', 'model', 'resume', 'usage', 'add-dir']));
    expect(listed.filter((c) => c.name === 'compact')).toHaveLength(1);
    expect(new Set(listed.map((c) => c.name)).size).toBe(listed.length);
    expect(JSON.stringify(listed)).not.toMatch(/[\u202e\u0000-\u001f]|pwned/);
    expect(existsSync(join(project, 'pwned'))).toBe(false);
  });

  it('is 404 for an unknown tab or session', async () => {
    expect((await api(phone, 'GET', '/api/tabs/tb-nope/commands')).status).toBe(404);
    expect((await api(phone, 'GET', '/api/outside/outside-nope/commands')).status).toBe(404);
  });
});

describe('uploads', () => {
  let tab: TabView;
  let dir: string;
  beforeAll(async () => {
    ({ tab, dir } = await shellTabIn('uploads'));
  });

  it('saves a file 0600 where the response says, byte for byte, and a second of the same name beside it', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200_000)]);
    const first = await upload(`/api/tabs/${tab.id}/uploads`, png, { name: 'screen shot.png', type: 'image/png' });
    expect(first.status).toBe(201);
    expect(first.body.relativePath).toMatch(/^\.pocketmux\/uploads\/\d{8}-\d{6}-screen shot\.png$/);
    expect(first.body.path).toBe(join(dir, first.body.relativePath));
    expect(first.body.bytes).toBe(png.length);
    expect(readFileSync(first.body.path).equals(png)).toBe(true);
    expect(statSync(first.body.path).mode & 0o777).toBe(0o600);
    expect(statSync(uploadsIn(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '.pocketmux')).mode & 0o777).toBe(0o700);

    const second = await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('second'), { name: 'screen shot.png' });
    expect(second.status).toBe(201);
    expect(second.body.path).not.toBe(first.body.path);
    expect(readFileSync(second.body.path, 'utf8')).toBe('second');
    expect(readFileSync(first.body.path).equals(png)).toBe(true);
  });

  it('takes any content type, JSON too, as the file itself', async () => {
    const json = JSON.stringify({ big: 'x'.repeat(600 * 1024) });
    const res = await upload(`/api/tabs/${tab.id}/uploads`, json, { name: 'data.json', type: 'application/json' });
    expect(res.status).toBe(201);
    expect(readFileSync(res.body.path, 'utf8')).toBe(json);
  });

  it('refuses a file past the limit (413) and keeps nothing of it, declared or streamed', async () => {
    const before = listUploads(dir);
    const declared = await upload(`/api/tabs/${tab.id}/uploads`, Buffer.alloc(UPLOAD_MAX_BYTES + 1, 1), { name: 'big.bin' });
    expect(declared.status).toBe(413);
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > UPLOAD_MAX_BYTES + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const streamed = await upload(`/api/tabs/${tab.id}/uploads`, stream, { name: 'big-stream.bin' });
    expect(streamed.status).toBe(413);
    expect(listUploads(dir)).toEqual(before);
    // The agent still serves.
    expect((await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('ok'), { name: 'after.txt' })).status).toBe(201);
  });

  it('keeps only a safe base name: no traversal, no bidi, no leading dot', async () => {
    const cases: [string, RegExp][] = [
      ['../../x', /-x$/],
      ['/etc/passwd', /-passwd$/],
      ['a\u202Eb.png', /-ab\.png$/],
      ['.bashrc', /-bashrc$/],
      ['..', /-upload\.bin$/],
      ['line\nbreak.txt', /-linebreak\.txt$/],
    ];
    for (const [name, expected] of cases) {
      const res = await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from(name), { name });
      expect(res.status, name).toBe(201);
      expect(res.body.relativePath, name).toMatch(expected);
      expect(res.body.relativePath.split('/').slice(0, 2)).toEqual(['.pocketmux', 'uploads']);
      expect(res.body.relativePath).not.toMatch(/[\u202e\n]/);
      expect(readFileSync(join(dir, res.body.relativePath), 'utf8')).toBe(name);
    }
    expect(existsSync(join(dir, '..', '..', 'x'))).toBe(false);
  });

  it('needs the name header, percent-encoded', async () => {
    const before = listUploads(dir);
    const missing = await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('x'), { name: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain(UPLOAD_FILENAME_HEADER);
    expect((await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('x'), { rawName: '%E0%A4%A' })).status).toBe(400);
    expect(listUploads(dir)).toEqual(before);
  });

  it('refuses a .pocketmux that is a symbolic link, and writes nothing where it leads', async () => {
    const { tab: linked, dir: linkedDir } = await shellTabIn('linked');
    const elsewhere = join(env.home, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(linkedDir, '.pocketmux'));
    const res = await upload(`/api/tabs/${linked.id}/uploads`, Buffer.from('x'), { name: 'x.txt' });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('symbolic link');
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lstatSync(join(linkedDir, '.pocketmux')).isSymbolicLink()).toBe(true);
  });

  it('is 404 for an unknown tab or session, and 401 without a credential', async () => {
    expect((await upload('/api/tabs/tb-nope/uploads', Buffer.from('x'))).status).toBe(404);
    expect((await upload('/api/outside/outside-nope/uploads', Buffer.from('x'))).status).toBe(404);
    const before = listUploads(dir);
    expect((await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('x'), { device: null })).status).toBe(401);
    expect(listUploads(dir)).toEqual(before);
  });

  it('takes at most 4 at once (503 past them), and each held one completes once sent', async () => {
    const held: { controller: ReadableStreamDefaultController<Uint8Array>; response: ReturnType<typeof upload> }[] = [];
    for (let i = 0; i < 4; i++) {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          c.enqueue(new TextEncoder().encode(`held ${i} `));
        },
      });
      held.push({ controller, response: upload(`/api/tabs/${tab.id}/uploads`, stream, { name: `held-${i}.txt` }) });
    }
    // Each holds a slot once its temporary file exists.
    await eventually(() => readdirSync(uploadsIn(dir)).filter((f) => f.startsWith('.incoming-')).length === 4, 20_000, 'four uploads in progress');
    const refused = await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('fifth'), { name: 'fifth.txt' });
    expect(refused.status).toBe(503);
    for (const h of held) {
      h.controller.enqueue(new TextEncoder().encode('done'));
      h.controller.close();
    }
    const done = await Promise.all(held.map((h) => h.response));
    expect(done.map((d) => d.status)).toEqual([201, 201, 201, 201]);
    expect(done.map((d) => readFileSync(d.body.path, 'utf8')).sort()).toEqual(['held 0 done', 'held 1 done', 'held 2 done', 'held 3 done']);
    expect(readdirSync(uploadsIn(dir)).filter((f) => f.startsWith('.incoming-'))).toEqual([]);
    expect((await upload(`/api/tabs/${tab.id}/uploads`, Buffer.from('fifth'), { name: 'fifth.txt' })).status).toBe(201);
  });
});

describe('a Claude started outside pocketmux', () => {
  const sessionStart = capturedHook('SessionStart');
  const payload = (id: string, cwd: string) => ({ ...sessionStart, session_id: id, cwd, transcript_path: `/nonexistent/${id}.jsonl`, hook_event_name: 'SessionStart' });
  const newId = () => `${randomBytes(4).toString('hex')}-0000-4000-8000-${randomBytes(6).toString('hex')}`;

  async function report(id: string, cwd: string, tmuxEnv: Record<string, string>): Promise<string> {
    const run = await runHookScript(agent.dataDir, '--global SessionStart', payload(id, cwd), tmuxEnv);
    expect(run).toMatchObject({ code: 0 });
    const key = outsideSessionKey(id);
    await eventually(async () => (await api<OutsideSessionsResponse>(phone, 'GET', '/api/outside')).body.sessions.some((s) => s.key === key), 15_000, `${key} listed`);
    return key;
  }

  it('in tmux: Escape reaches its pane in order with typed text', async () => {
    const dir = join(env.home, 'outside-tmux');
    mkdirSync(dir);
    const file = join(dir, 'typed.txt');
    const bin = claudeStandIn(agent.root);
    const pane = await own.open(dir, `stty -icanon -echo; exec '${bin}' > '${file}'`, { PATH: process.env.PATH ?? '', HOME: env.home, TERM: 'xterm-256color', LANG: 'C.UTF-8' });
    // Typed only while its claude runs in the pane: once the shell became the stand-in.
    await eventually(async () => (await tmux(own.socket, 'display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === 'claude', 10_000, 'the stand-in to run');
    const key = await report(newId(), dir, { TMUX: await own.tmuxEnv(), TMUX_PANE: pane });
    expect((await api(phone, 'POST', `/api/outside/${key}/input`, { text: 'before', enter: false })).status).toBe(204);
    expect((await api(phone, 'POST', `/api/outside/${key}/keys`, { key: 'Escape' })).status).toBe(204);
    expect((await api(phone, 'POST', `/api/outside/${key}/input`, { text: 'after', enter: true })).status).toBe(204);
    await eventually(() => readFileSync(file, 'utf8').endsWith('\n'), 10_000, 'the line in the file');
    expect(readFileSync(file, 'utf8')).toBe('before\x1bafter\n');
    expect((await api(phone, 'POST', `/api/outside/${key}/keys`, { key: 'Tab' })).status).toBe(400);
  });

  it('outside tmux: no keys (409), but its commands and uploads, in its directory', async () => {
    const dir = join(env.home, 'outside-plain');
    mkdirSync(join(dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(dir, '.claude', 'commands', 'plain.md'), 'A plain command\n');
    const key = await report(newId(), realpathSync(dir), {});
    const keys = await api<ApiError>(phone, 'POST', `/api/outside/${key}/keys`, { key: 'Escape' });
    expect(keys.status).toBe(409);
    expect(keys.body.error).toContain('outside tmux');
    const commands = await api<SlashCommandsResponse>(phone, 'GET', `/api/outside/${key}/commands`);
    expect(commands.body.commands[0]).toEqual({ name: 'plain', description: 'A plain command', source: 'project' });
    const saved = await upload(`/api/outside/${key}/uploads`, Buffer.from('for the outside claude'), { name: 'note.txt' });
    expect(saved.status).toBe(201);
    expect(saved.body.path).toBe(join(realpathSync(dir), saved.body.relativePath));
    expect(readFileSync(saved.body.path, 'utf8')).toBe('for the outside claude');
  });
});

describe('Stop in a real Claude tab', () => {
  it('Escape through the API interrupts a streamed answer: the tab leaves busy', async () => {
    const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude', claude: { permissionMode: 'default' } });
    expect(created.status).toBe(201);
    const tab = created.body;
    const pane = new ClaudeTabPane(agent, tab);
    const status = new StatusClient(phone);
    try {
      await status.opened;
      await status.waitState(tab.id, 'idle', (s) => s.claudeRunning, 30_000);
      await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
      const reply = slow('Let me think about this slowly\n', 'and this should never be shown');
      fake.onPrompt('think slowly', reply);
      await pane.submit('think slowly');
      const busy = await status.waitState(tab.id, 'busy');
      await reply.started;
      const res = await api(phone, 'POST', `/api/tabs/${tab.id}/keys`, { key: 'Escape' });
      expect(res.status).toBe(204);
      await reply.aborted;
      const idle = await status.waitState(tab.id, 'idle', () => true, 30_000);
      // No hook fired for it: the transcript's interrupt line did it.
      expect(idle.seq).toBe(busy.seq);
      expect(await pane.screen()).not.toContain('should never be shown');
    } finally {
      status.ws.close();
    }
  });
});
