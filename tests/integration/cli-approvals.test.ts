/**
 * `pocketmux approvals`, `approve`, `deny` and `answer` against a real agent. No Claude: the
 * agent's installed hook script is run exactly as Claude runs it, with payloads the real CLI
 * sent, and it blocks until the approval is settled, then prints what Claude would read.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerBody } from '../../agent/cli/approvals-cli.js';
import { type CliError, EXIT } from '../../agent/cli/remote.js';
import { type Approval, type ApprovalResolution, BLOCK_OPTIONS } from '../../protocol/approvals.js';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent } from '../support/agent.js';
import { runHookScript } from '../support/hook-script.js';
import { api, claim } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { paneEnv } from '../support/status.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');

type Payload = Record<string, unknown> & { tool_input: Record<string, unknown> };

function permissionRequests(file: string): Payload[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"PermissionRequest"'))
    .map((l) => JSON.parse(l) as Payload);
}

/** Bash `echo hello-from-mock > /opt/hooks/out.txt`, with Claude's suggestion to add /opt/hooks. */
const bashRequest = permissionRequests(join(FIXTURES, 'hooks.jsonl'))[0] as Payload;
/** AskUserQuestion: "Which colour should the button be?" Red or Blue. */
const questionRequest = permissionRequests(join(FIXTURES, 'ask-user-question', 'hooks.jsonl')).find((p) => p.tool_name === 'AskUserQuestion') as Payload;
const COLOUR = 'Which colour should the button be?';

type HookDecision = {
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest';
    decision: { behavior: 'allow' | 'deny'; message?: string; updatedInput?: { answers?: Record<string, string> }; updatedPermissions?: unknown[] };
  };
};

let agent: AgentHandle;
let pane: { TMUX_PANE: string; TMUX: string };
let tabId: string;
const hooks: ChildProcess[] = [];
const seen = new Set<string>();

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent));
}

/**
 * Runs the installed hook script as Claude would: sh, the payload on stdin, the tab's pane in
 * its environment. It returns when the approval is settled, with what it printed.
 */
function runHook(payload: unknown): Promise<{ code: number | null; stdout: string }> {
  return runHookScript(agent.dataDir, 'PermissionRequest', payload, pane, (child) => hooks.push(child));
}

async function listed(): Promise<Approval[]> {
  const r = await cli('approvals', '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Approval[];
}

/** Opens an approval through the hook script; resolves once the CLI lists it. */
async function open(payload: Payload) {
  const hook = runHook(payload);
  const approval = await eventually(async () => (await listed()).find((a) => !seen.has(a.id)), 10_000, 'the approval to be listed');
  seen.add(approval.id);
  /** What the hook script printed for Claude, once settled. */
  const decision = async () => {
    const r = await hook;
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as HookDecision;
  };
  return { approval, hook, decision };
}

beforeAll(async () => {
  // No claude runs in the tab these hooks come from: the safety-net poll would find it gone and
  // settle its approvals under the test (it runs every 30 to 60 s), so it waits an hour here.
  agent = await startAgent({ env: { POCKETMUX_SAFETY_POLL_MS: '3600000', POCKETMUX_LOG_LEVEL: 'debug' } });
  const created = await cli('tab', 'new', agent.home, '--json');
  expect(created.code, created.stderr).toBe(0);
  const tab = JSON.parse(created.stdout) as { id: string; workspaceId: string };
  tabId = tab.id;
  pane = await paneEnv(agent, tab);
});
afterAll(async () => {
  for (const child of hooks) if (child.exitCode === null && child.signalCode === null) child.kill();
  await cleanupAgents();
});

describe('pocketmux approvals from the CLI', () => {
  it('lists an open permission, in text and JSON, and approves it: the hook tells Claude to allow', async () => {
    const { approval, decision } = await open(bashRequest);
    expect(approval).toMatchObject({ kind: 'permission', tool: 'Bash', tabId, alwaysAllow: expect.stringContaining('/opt/hooks') });

    const text = await cli('approvals');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${approval.id}  permission  Bash  tab ${tabId}  \\d+s ago$`));
    expect(text.stdout).toContain(`  ${approval.summary.title}\n`);
    expect(approval.summary.title).toContain('echo hello-from-mock');
    expect(text.stdout).toContain('  Write a file\n');
    expect(text.stdout).toContain(`  always allow: ${approval.alwaysAllow}\n`);

    const approved = await cli('approve', approval.id);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toBe(`approved ${approval.id} (${approval.summary.title})\n`);
    expect(await decision()).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    expect(await listed()).toEqual([]);

    // The second decision learns who came first; the CLI's own read "from the CLI".
    const again = await cli('approve', approval.id);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('pocketmux: already approved from the CLI\n');
    const againJson = await cli('deny', approval.id, '--json');
    expect(againJson.code).toBe(1);
    expect(JSON.parse(againJson.stdout)).toEqual({ error: 'already approved from the CLI' });
  });

  it('waits for an approval to open, and times out with exit 4 when none does', async () => {
    const timedOut = await cli('approvals', '--wait', '--timeout', '1');
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toBe('pocketmux: no approval opened within 1 s\n');
    const timedOutJson = await cli('approvals', '--wait', '--timeout', '1', '--json');
    expect(timedOutJson.code).toBe(4);
    expect(JSON.parse(timedOutJson.stdout)).toEqual({ error: 'no approval opened within 1 s' });

    const joined = () => agent.stderr().match(/ debug status client joined \{"device":"cli","approvals":0\}$/gm)?.length ?? 0;
    const joinedBefore = joined();
    const waiting = cli('approvals', '--wait', '--json', '--timeout', '30');
    let returned = false;
    void waiting.then(() => {
      returned = true;
    });
    // The agent sent the waiting CLI its snapshot, with no approval in it: from here it waits.
    await eventually(() => joined() > joinedBefore, 20_000, 'the waiting CLI on the status channel', () => agent.stderr().slice(-2000));
    expect(returned).toBe(false);
    const { approval, decision } = await open(bashRequest);
    const waited = await waiting;
    expect(waited.code, waited.stderr).toBe(0);
    expect((JSON.parse(waited.stdout) as Approval[]).map((a) => a.id)).toEqual([approval.id]);

    // Already open: --wait prints it rather than waiting for another (which would time out
    // with exit 4, as above).
    const now = await cli('approvals', '--wait', '--timeout', '20');
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toContain(approval.id);

    const always = await cli('approve', approval.id, '--always', '--json');
    expect(always.code, always.stderr).toBe(0);
    expect(JSON.parse(always.stdout) as ApprovalResolution).toMatchObject({ id: approval.id, outcome: 'approved-always', by: { kind: 'cli', name: null } });
    expect(await decision()).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: bashRequest.permission_suggestions } },
    });
  });

  it('denies with a message: the hook tells Claude to deny, and why', async () => {
    const { approval, decision } = await open(bashRequest);
    const denied = await cli('deny', approval.id, '--message', 'Use the staging server instead');
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toBe(`denied ${approval.id} (${approval.summary.title})\n`);
    expect(await decision()).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Use the staging server instead' } },
    });
  });

  it('answers a question by label, by number, or with free text', async () => {
    const question = await open(questionRequest);
    expect(question.approval).toMatchObject({ kind: 'question', tool: 'AskUserQuestion', questions: [{ question: COLOUR, multiSelect: false }] });
    const text = await cli('approvals');
    expect(text.stdout).toContain(`  [Colour] ${COLOUR}\n    1. Red - A red button\n    2. Blue - A blue button\n    or any other text\n`);
    expect(text.stdout).toMatch(new RegExp(`pocketmux(\\.js)? answer ${question.approval.id} LABEL`));

    // A question is answered, not approved.
    const wrong = await cli('approve', question.approval.id);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(new RegExp(`pocketmux(\\.js)? answer ${question.approval.id} LABEL`));
    const tooMany = await cli('answer', question.approval.id, 'Red', 'Blue');
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('asks one question');

    const byLabel = await cli('answer', question.approval.id, 'blue');
    expect(byLabel.code, byLabel.stderr).toBe(0);
    expect(byLabel.stdout).toBe(`answered ${question.approval.id} (${question.approval.summary.title})\n`);
    const answeredByLabel = await question.decision();
    expect(answeredByLabel.hookSpecificOutput.decision).toMatchObject({ behavior: 'allow', updatedInput: { ...questionRequest.tool_input, answers: { [COLOUR]: 'Blue' } } });

    const byNumber = await open(questionRequest);
    expect((await cli('answer', byNumber.approval.id, '1')).code).toBe(0);
    expect((await byNumber.decision()).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ [COLOUR]: 'Red' });

    const freeText = await open(questionRequest);
    expect((await cli('answer', freeText.approval.id, 'Green, like grass')).code).toBe(0);
    expect((await freeText.decision()).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ [COLOUR]: 'Green, like grass' });
  });

  it('answers several questions in order, a multi-select with options comma-separated', async () => {
    const tool_input = {
      questions: [
        {
          question: 'Which colours?',
          header: 'Colours',
          options: [
            { label: 'Red', description: 'A red button' },
            { label: 'Blue', description: 'A blue button' },
            { label: 'Green', description: null },
          ],
          multiSelect: true,
        },
        (questionRequest.tool_input.questions as unknown[])[0],
      ],
    };
    const { approval, decision } = await open({ ...questionRequest, tool_input });
    const text = await cli('approvals');
    expect(text.stdout).toContain('Q1 [Colours] Which colours? (several, comma-separated)');
    expect(text.stdout).toContain(`Q2 [Colour] ${COLOUR}`);
    const answered = await cli('answer', approval.id, 'red,3', 'Blue');
    expect(answered.code, answered.stderr).toBe(0);
    expect((await decision()).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ 'Which colours?': 'Red, Green', [COLOUR]: 'Blue' });
  });

  it('says who came first when a phone answered before the CLI', async () => {
    const phone = await claim(agent, 'Pixel 8');
    const { approval, decision } = await open(bashRequest);
    expect((await api(phone, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
    expect((await decision()).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const late = await cli('deny', approval.id, '--message', 'too late');
    expect(late.code).toBe(1);
    expect(late.stderr).toBe('pocketmux: already approved by Pixel 8\n');
  });

  it('refuses an unknown approval', async () => {
    for (const args of [['approve', 'ap-nosuchthing'], ['deny', 'ap-nosuchthing'], ['answer', 'ap-nosuchthing', 'Red']]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toBe('pocketmux: no such approval\n');
    }
    const json = await cli('answer', 'ap-nosuchthing', '2', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ error: 'no such approval' });
    const usage = await cli('approve');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage: \S*pocketmux(\.js)? approve ID \[--always\]/);
  });

  it('shows a hostile request without raw control characters', async () => {
    const hostile = {
      ...bashRequest,
      tool_input: { command: 'echo \u001b[2Jwiped \u202eevil\u202c > /tmp/x\u0007', description: 'Clear \u001b]0;owned\u0007 the screen' },
      permission_suggestions: [],
    };
    const { approval, decision } = await open(hostile);
    const text = await cli('approvals');
    const json = await cli('approvals', '--json');
    for (const printed of [text.stdout, json.stdout]) {
      expect(printed).toContain(approval.id);
      expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(text.stdout).toContain('wiped');
    // The JSON still parses to exactly what the agent holds.
    expect((JSON.parse(json.stdout) as Approval[]).find((a) => a.id === approval.id)).toEqual(approval);
    const denied = await cli('deny', approval.id);
    expect(denied.code).toBe(0);
    expect(denied.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect((await decision()).hookSpecificOutput.decision.behavior).toBe('deny');
  });
});

describe('what `pocketmux answer` sends', () => {
  const base: Approval = {
    id: 'ap-test',
    tabId: 'tb-test',
    sessionId: null,
    kind: 'dialog',
    tool: null,
    summary: { title: 'Exit plan mode?', description: null, body: null, diff: null, path: null },
    questions: [],
    options: [
      { key: '1', label: 'Yes, and auto-accept edits' },
      { key: '2', label: 'Yes' },
      { key: '3', label: 'No, keep planning' },
    ],
    alwaysAllow: null,
    createdAt: 0,
    expiresAt: 0,
    denyAt: null,
  };
  const refusal = (approval: Approval, labels: string[]) => {
    try {
      answerBody(approval, labels);
    } catch (err) {
      return err as CliError;
    }
    throw new Error('not refused');
  };

  it('a block: retry or dismiss, by key or label', () => {
    const block: Approval = { ...base, kind: 'block', options: [...BLOCK_OPTIONS] };
    expect(answerBody(block, ['retry'])).toEqual({ decision: 'answer', option: 'retry' });
    expect(answerBody(block, ['Dismiss'])).toEqual({ decision: 'answer', option: 'dismiss' });
    expect(refusal(block, ['approve'])).toMatchObject({ code: EXIT.usage, message: expect.stringContaining('choose one of retry (Let Claude retry it), dismiss (Dismiss)') });
  });

  it('a plan or dialog: its option by number or label', () => {
    for (const kind of ['plan', 'dialog'] as const) {
      expect(answerBody({ ...base, kind }, ['3'])).toEqual({ decision: 'answer', option: '3' });
      expect(answerBody({ ...base, kind }, ['yes'])).toEqual({ decision: 'answer', option: '2' });
    }
    expect(refusal(base, ['4'])).toMatchObject({ code: EXIT.usage, message: expect.stringContaining('choose one of 1 (Yes, and auto-accept edits), 2 (Yes), 3 (No, keep planning)') });
    expect(refusal(base, ['1', '2']).code).toBe(EXIT.usage);
    // Options not read from the screen: the number is taken as typed.
    expect(answerBody({ ...base, options: [] }, ['2'])).toEqual({ decision: 'answer', option: '2' });
    expect(refusal({ ...base, options: [] }, ['yes']).code).toBe(EXIT.usage);
  });

  it('a question: labels, numbers, several, free text; a permission is not answered', () => {
    const question: Approval = {
      ...base,
      kind: 'question',
      options: [],
      questions: [
        { question: 'Pick', header: null, options: [{ label: 'One', description: null }, { label: 'Two', description: null }], multiSelect: true },
        { question: 'Why', header: null, options: [{ label: 'Because', description: null }], multiSelect: false },
      ],
    };
    expect(answerBody(question, [' two , 1 ,, Three', '1'])).toEqual({ decision: 'answer', answers: { Pick: 'Two, One, Three', Why: 'Because' } });
    expect(answerBody(question, ['9', '  just because '])).toEqual({ decision: 'answer', answers: { Pick: '9', Why: 'just because' } });
    const named: Approval = { ...question, questions: [{ ...(question.questions[1] as Approval['questions'][number]), question: '__proto__' }] };
    expect(JSON.stringify(answerBody(named, ['1']))).toBe('{"decision":"answer","answers":{"__proto__":"Because"}}');
    expect(refusal(question, ['One', ' ']).message).toBe('an answer cannot be empty');
    expect(refusal(question, ['One']).message).toContain('asks 2 questions');
    expect(refusal({ ...base, kind: 'permission', options: [] }, ['1']).message).toMatch(/pocketmux(\.js)? approve ap-test/);
  });
});
