/**
 * Codex's hooks at the agent's intake, as the hook script posts them (`hook.sh codex/<event>`),
 * with the payloads captured from the real Codex CLI 0.169.0: the states they move a tab
 * through, the decision a held PermissionRequest prints, and what the intake refuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, createTab, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { paneEnv, StatusClient } from '../support/status.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'codex-0.169.0');
const captured = (file: string) =>
  readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { hook_event_name: string; session_id: string });

let agent: AgentHandle;
let session: Session;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
});
afterAll(cleanupAgents);

describe('Codex hooks', () => {
  it('move a tab through a turn approved from the phone, and the script prints the decision Codex reads', async () => {
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const client = new StatusClient(session);
    await client.opened;
    const seen: string[] = [];
    for (const payload of captured('hooks.jsonl')) {
      const event = payload.hook_event_name;
      if (event === 'PermissionRequest') {
        const hook = runHookScript(agent.dataDir, `codex/${event}`, payload, env);
        const approval = await client.waitApproval(tab.id, 5000);
        expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash', alwaysAllow: null });
        expect(approval.summary).toMatchObject({ title: 'Bash: echo marker > marker.txt', description: 'Write the marker file' });
        expect((await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
        const r = await hook;
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
      } else {
        const r = await runHookScript(agent.dataDir, `codex/${event}`, payload, env);
        expect(r).toMatchObject({ code: 0, stdout: '' });
      }
      const status = await eventually(() => ((s) => (s && s.seq === seen.length + 1 ? s : null))(client.latest(tab.id)), 5000, `status after ${event}`);
      seen.push(`${event}:${status.state}`);
    }
    expect(seen).toEqual(['SessionStart:idle', 'UserPromptSubmit:busy', 'PreToolUse:busy', 'PermissionRequest:needs-input', 'PostToolUse:busy', 'Stop:ready-for-review']);
    expect(client.latest(tab.id)).toMatchObject({ claudeRunning: true, sessionId: captured('hooks.jsonl')[0]?.session_id });
    client.ws.close();
  });

  it('goes idle on Interrupt (Esc on the dialog), which settles the approval it left open', async () => {
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const client = new StatusClient(session);
    await client.opened;
    const held: Promise<unknown>[] = [];
    for (const payload of captured('escape-hooks.jsonl')) {
      const event = payload.hook_event_name;
      if (event === 'PermissionRequest') {
        held.push(runHookScript(agent.dataDir, `codex/${event}`, payload, env));
        await client.waitApproval(tab.id, 5000);
      } else expect(await runHookScript(agent.dataDir, `codex/${event}`, payload, env)).toMatchObject({ code: 0, stdout: '' });
    }
    expect(captured('escape-hooks.jsonl').at(-1)?.hook_event_name).toBe('Interrupt');
    await client.waitState(tab.id, 'idle');
    expect(client.states(tab.id)).toEqual(['busy', 'needs-input', 'idle']);
    // The held hook is let go with no decision, and the card is gone from every device.
    await Promise.all(held);
    await eventually(() => client.openApprovals().every((a) => a.tabId !== tab.id), 5000, 'the approval settled');
    client.ws.close();
  });

  it('refuses what is not a Codex hook with a clear status, and changes nothing', async () => {
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const post = (path: string, body: unknown) =>
      fetch(new URL(path, agent.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE as string, 'x-pocketmux-tmux': env.TMUX as string },
        body: JSON.stringify(body),
      });
    const stop = captured('hooks.jsonl').find((p) => p.hook_event_name === 'Stop');
    const interrupt = captured('escape-hooks.jsonl').find((p) => p.hook_event_name === 'Interrupt');
    const cases: [string, Promise<Response>, number, RegExp][] = [
      ['Claude under a name of its own', post('/hooks/claude/Stop', stop), 404, /<agent>\/<event>/],
      ['an agent pocketmux does not run', post('/hooks/gemini/Stop', stop), 404, /<agent>\/<event>/],
      ['a path below a Codex event', post('/hooks/codex/Stop/again', stop), 404, /<agent>\/<event>/],
      ['no event', post('/hooks/codex/', stop), 404, /<agent>\/<event>/],
      ["an event of Claude's that Codex has not", post('/hooks/codex/Notification', { ...stop, hook_event_name: 'Notification' }), 400, /unknown hook event/],
      ["Codex's Interrupt at Claude's intake", post('/hooks/Interrupt', interrupt), 400, /unknown hook event/],
      ['an event mismatch', post('/hooks/codex/SessionEnd', stop), 400, /posted to SessionEnd/],
      ['a last message that is no text', post('/hooks/codex/Stop', { ...stop, last_assistant_message: 42 }), 400, /last_assistant_message/],
    ];
    for (const [name, request, status, message] of cases) {
      const res = await request;
      expect(res.status, name).toBe(status);
      expect(((await res.json()) as { error: string }).error, name).toMatch(message);
    }
    const snapshot = await api<{ tabs: Record<string, unknown> }>(session, 'GET', '/api/status');
    expect(snapshot.body.tabs[tab.id]).toBeUndefined();
  });
});
