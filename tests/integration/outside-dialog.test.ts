/**
 * A dialog no hook stands for, in a Claude started outside pocketmux, in the person's own tmux
 * server, with pocketmux's hooks in its user settings: the offer to make auto mode the default
 * (the settings say `"defaultMode": "default"`) reaches the device as a card of the outside
 * session, text for it is refused while the offer is up, and the card's answer reaches the pane.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from '../support/claude-env.js';
import { ClaudePane } from '../support/claude-pane.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic, text } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';
import { TmuxServer } from '../support/tmux-server.js';

const OFFER = 'Make auto mode your default permission mode?';

describe('a startup dialog of a Claude started outside pocketmux', () => {
  const env = newTestEnvironment();
  const own = TmuxServer.named('own');
  let fake: FakeAnthropic;
  let claude: ClaudeEnv;
  let agent: AgentHandle;
  let phone: Session;
  let status: StatusClient;
  let project: string;
  let settingsFile: string;

  beforeAll(async () => {
    fake = await FakeAnthropic.start();
    fake.onPrompt('hello from outside', text('Hello outside.'));
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
    mkdirSync(join(env.home, '.claude'), { recursive: true });
    settingsFile = join(env.home, '.claude', 'settings.json');
    writeFileSync(settingsFile, `${JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2)}\n`);
    agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, POCKETMUX_OUTSIDE_POLL_MS: '300' } });
    phone = await claim(agent, 'Pixel 8');
    status = new StatusClient(phone);
    await status.opened;
    const installed = await runCli(['hooks', 'install', '--data-dir', agent.dataDir], agentEnv(agent));
    expect(installed.code, installed.stderr).toBe(0);
  });

  afterAll(async () => {
    status?.ws.close();
    await own.stop();
    await cleanupAgents();
    await fake?.close();
  });

  it('offers it as a card of the outside session, refuses text meanwhile, and takes "No" from the card', async () => {
    const settings = readFileSync(settingsFile, 'utf8');
    const paneId = await own.open(project, `'${CLAUDE_BIN}'`, claude.env);
    const pane = new ClaudePane(own.socket, paneId);
    await pane.waitScreen('the offer', (s) => s.includes(OFFER), 30_000);
    const found = await eventually(
      async () => (await api<{ sessions: OutsideSessionView[] }>(phone, 'GET', '/api/outside')).body.sessions.find((s) => s.cwd === project),
      30_000,
      'the outside session',
    );
    const key = found.key;

    const card = await status.waitApproval(key);
    expect(card).toMatchObject({ kind: 'dialog', tabId: key, summary: { title: OFFER }, options: [{ key: '1' }, { key: '2', label: 'No, keep manual mode' }] });
    await status.waitState(key, 'needs-input');

    const typed = await api<{ error: string }>(phone, 'POST', `/api/outside/${key}/input`, { text: 'hello during the offer', enter: true });
    expect(typed).toMatchObject({ status: 409, body: { error: DIALOG_SHOWN_ERROR } });
    expect(await pane.screen()).not.toContain('hello during the offer');

    expect((await api(phone, 'POST', `/api/approvals/${card.id}`, { decision: 'answer', option: '2' })).status).toBe(200);
    await pane.waitScreen('the prompt in manual mode', (s) => !s.includes(OFFER) && s.includes('manual mode on'));
    // Manual, as the footer says: read at the agent's next look at the screen.
    await status.waitState(key, 'idle', (s) => s.permissionMode === 'manual');
    expect(readFileSync(settingsFile, 'utf8')).toBe(settings);

    expect((await api(phone, 'POST', `/api/outside/${key}/input`, { text: 'hello from outside', enter: true })).status).toBe(204);
    await pane.waitScreen('the answer', (s) => s.includes('Hello outside.'));
  }, 90_000);
});
