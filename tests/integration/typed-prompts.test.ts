/**
 * Prompts sent with Enter through `POST /api/tabs/:id/input`, against a real agent running the
 * real Claude Code CLI in a Claude tab (against the stand-in API): long or multi-line, each is
 * submitted at once and reaches the model as the person's message, exactly as sent, and the
 * turn runs. Claude Code takes typed text that arrives together with Enter as a paste and keeps
 * the Enter in it as a new line; the agent pastes the text, then presses Enter.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent, tmux } from '../support/agent.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { api, claim, type Session } from '../support/client.js';
import { FakeAnthropic, type RecordedRequest, text } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';

let fake: FakeAnthropic;
let agent: AgentHandle;
let phone: Session;
let tab: TabView;
let pane: ClaudeTabPane;
let status: StatusClient;
const env = newTestEnvironment();

beforeAll(async () => {
  fake = await FakeAnthropic.start();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  const project = realpathSync(join(env.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env });
  phone = await claim(agent, 'Pixel 8');
  const workspace = (await api<WorkspaceView>(phone, 'POST', '/api/workspaces', { dir: project })).body;
  const created = await api<TabView>(phone, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude', claude: { permissionMode: 'default' } });
  expect(created.status).toBe(201);
  tab = created.body;
  pane = new ClaudeTabPane(agent, tab);
  status = new StatusClient(phone);
  await status.opened;
  await status.waitState(tab.id, 'idle', (s) => s.claudeRunning, 30_000);
  await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
});

afterAll(async () => {
  status?.ws.close();
  await cleanupAgents();
  await fake?.close();
});

/**
 * Sends `prompt` with Enter in one request, as the composer, the inbox reply and `tab send` do;
 * resolves with the text of the person's message the model received, once the turn has ended.
 */
async function submit(prompt: string, answer: string): Promise<string> {
  const before = fake.mainRequests().length;
  fake.onPrompt((p) => p === prompt, text(answer), { times: 1 });
  const res = await api(phone, 'POST', `/api/tabs/${tab.id}/input`, { text: prompt, enter: true });
  expect(res.status).toBe(204);
  const request = await fake.waitForRequest((r) => r.endpoint === 'messages' && !r.sideCall && fake.mainRequests().indexOf(r) >= before, 20_000);
  await status.waitState(tab.id, 'ready-for-review', () => true, 30_000);
  await pane.waitScreen(`the answer "${answer}"`, (s) => s.includes(answer) && /^❯ *$/m.test(s), 20_000);
  // Opening the tab's review is what a person does next; it leaves the tab idle for the next prompt.
  status.ws.send(JSON.stringify({ type: 'status:tab-dismissed', tabId: tab.id }));
  await status.waitState(tab.id, 'idle', () => true, 10_000);
  return personsText(request);
}

/**
 * The last text of the last user message, untrimmed: what the person sent, after the context
 * Claude Code puts before it in the same message (`<system-reminder>` blocks).
 */
function personsText(request: RecordedRequest): string {
  const last = [...(request.body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  const blocks = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
  const texts = blocks.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' && !b.text.startsWith('<system-reminder>') ? [b.text] : []));
  return texts.at(-1) ?? '';
}

/** Paste buffers left on the agent's tmux server. */
const buffers = () => tmux(agent.tmuxSocket, 'list-buffers', '-F', '#{buffer_name}');

describe('a prompt sent with Enter in one request', () => {
  it('of about 400 characters is submitted and reaches the model whole', async () => {
    const prompt = `Please review the change below and say what could break. ${'The handler retries the request, logs the failure and returns a typed error to the caller. '.repeat(4)}Then suggest a test.`;
    expect(prompt.length).toBeGreaterThan(380);
    expect(await submit(prompt, 'Reviewed the long one.')).toBe(prompt);
    expect(await buffers()).toBe('');
  });

  it('of three lines arrives as one prompt with its line breaks, submitted once', async () => {
    const prompt = 'first: rename the button\nsecond: update the tests\nthird: run them all';
    const before = fake.mainRequests().length;
    expect(await submit(prompt, 'Three lines done.')).toBe(prompt);
    expect(fake.mainRequests().slice(before).filter((r) => !r.hasToolResult)).toHaveLength(1);
  });

  it('of many lines and over 800 characters arrives as written, not folded into a pasted block', async () => {
    // Claude Code folds a single paste of more than 3 lines or 800 characters into
    // "[Pasted text #n]" and sends it wrapped in <pasted_content>: the agent pastes a line at a time.
    const prompt = Array.from({ length: 12 }, (_, i) => `${i + 1}. ${'check the edge cases of the parser, '.repeat(3)}and note them`).join('\n');
    expect(prompt.length).toBeGreaterThan(1_200);
    const got = await submit(prompt, 'Twelve lines done.');
    expect(got).not.toContain('pasted_content');
    expect(got).toBe(prompt);
    expect(await buffers()).toBe('');
  });
});
