/**
 * No secret in any process's arguments or environment while Claude's hooks run: another user
 * on the machine reads every command line under /proc. The real hook script runs for every
 * event, as a tab's hook and as a `--global` one, for the statusLine, and for permission
 * requests held until a device decides, against a real agent, while a scanner of its own reads
 * every process's command line and environment, pass after pass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_EVENT_NAMES } from '../../protocol/hooks.js';
import { cleanupAgents, REPO_ROOT, startAgent } from '../support/agent.js';
import { api, claim, createTab } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { agentSecrets, SecretScanner } from '../support/secret-scanner.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332');

/** What Claude sends for `event`: the captured payload, or the session's common fields where none was captured. */
function payloadOf(event: string): Record<string, unknown> {
  try {
    return capturedHook(event);
  } catch {
    const { session_id, transcript_path, cwd } = capturedHook('SessionStart');
    return { session_id, transcript_path, cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'true' } };
  }
}

let scanner: SecretScanner | null = null;
afterAll(async () => {
  scanner?.kill();
  await cleanupAgents();
});

describe('hook secrets', () => {
  it('puts no secret in the arguments or environment of any process the hooks start', async () => {
    // Debug logs: one line per hook received, so every run is seen to have reached the agent.
    const agent = await startAgent({ env: { POCKETMUX_LOG_LEVEL: 'debug' } });
    const session = await claim(agent);
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const client = new StatusClient(session);
    await client.opened;
    scanner = await SecretScanner.start(agentSecrets(agent, session));

    const events = HOOK_EVENT_NAMES.filter((e) => e !== 'PermissionRequest');
    for (const event of events) {
      for (const args of [event, `--global ${event}`]) {
        const run = await runHookScript(agent.dataDir, args, payloadOf(event), env);
        expect(run, args).toEqual({ code: 0, stdout: '', stderr: '' });
      }
    }
    const report = readFileSync(join(FIXTURES, 'statusline.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).at(-1) as string;
    for (const args of ['statusline', '--global statusline']) {
      expect((await runHookScript(agent.dataDir, args, report, env)).code, args).toBe(0);
    }
    // The statusLine's curl runs in the background: the report arriving is the sign it ran.
    await eventually(() => client.latest(tab.id)?.usage, 10_000, 'the statusLine report');

    // Held: curl waits with its arguments for as long as the approval is open.
    const held = ['PermissionRequest', '--global PermissionRequest'].map((args) => runHookScript(agent.dataDir, args, payloadOf('PermissionRequest'), env));
    const open = await eventually(() => (client.openApprovals().length === 2 ? client.openApprovals() : null), 10_000, 'both held requests');
    await scanner.morePasses(3);
    for (const approval of open) expect((await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
    for (const run of await Promise.all(held)) {
      expect(run.code).toBe(0);
      // An empty answer (curl -f on an error status, or a connection cut) says what the agent logged.
      expect(run.stdout, `no decision came back; the agent said:\n${agent.stderr().slice(-3000)}`).not.toBe('');
      expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    }

    const received = [...agent.stderr().matchAll(/ debug hook received (\{.*\})$/gm)].map((m) => (JSON.parse(m[1] as string) as { event: string }).event);
    for (const event of HOOK_EVENT_NAMES) expect(received.filter((e) => e === event).length, event).toBe(2);

    const seen = await scanner.stop();
    scanner = null;
    expect(seen.passes).toBeGreaterThan(3);
    expect(seen.sightings).toEqual([]);
    client.ws.close();
  });
});
