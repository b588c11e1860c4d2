/**
 * What a device's decision carries to Claude, through the real HTTP API of a real agent. No
 * Claude: the agent's installed hook script posts a PermissionRequest exactly as Claude's
 * command hook does, from a session outside the tabs, and prints what Claude would read once
 * the approval is settled. Question texts are Claude's words, and may be any words at all;
 * deny messages and answers are the person's, and may hold nothing that acts on a terminal or
 * reorders what a person reads.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import { type AgentHandle, cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type HookRun, runHookScript } from '../support/hook-script.js';
import { capturedHook } from '../support/status.js';

interface HookDecision {
  hookSpecificOutput: { decision: { behavior: 'allow' | 'deny'; message?: string; updatedInput?: { questions?: unknown[]; answers?: Record<string, string> } } };
}
type Decided = { resolution?: ApprovalResolution; error?: string; issues?: { path: string; message: string }[] };

let agent: AgentHandle;
let phone: Session;

beforeAll(async () => {
  agent = await startAgent();
  phone = await claim(agent, 'Pixel 8');
});
afterAll(cleanupAgents);

/** A PermissionRequest posted by the hook script, held until settled; resolves once the approval is listed. */
async function ask(tool: string, toolInput: Record<string, unknown>): Promise<{ approval: Approval; hook: Promise<HookRun> }> {
  const sessionId = randomUUID();
  const payload = { ...capturedHook('PermissionRequest'), session_id: sessionId, tool_name: tool, tool_input: toolInput };
  const hook = runHookScript(agent.dataDir, 'PermissionRequest', payload, {});
  const approval = await eventually(async () => {
    const listed = await api<{ approvals: Approval[] }>(phone, 'GET', '/api/approvals');
    return listed.body.approvals.find((a) => a.sessionId === sessionId);
  }, 10_000, 'the approval');
  return { approval, hook };
}

function question(text: string, labels: string[]) {
  return { question: text, header: 'Pick', options: labels.map((label) => ({ label, description: `${label}, described` })), multiSelect: false };
}

const decide = (id: string, body: unknown) => api<Decided>(phone, 'POST', `/api/approvals/${id}`, body);

/** What the held hook printed for Claude. */
async function printed(hook: Promise<HookRun>): Promise<HookDecision> {
  const run = await hook;
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as HookDecision;
}

describe('answers keyed by question text', () => {
  it('answers questions called toString and __proto__, and gives Claude both answers', async () => {
    const { approval, hook } = await ask('AskUserQuestion', { questions: [question('toString', ['Yes', 'No']), question('__proto__', ['Left', 'Right'])] });
    expect(approval.questions.map((q) => q.question)).toEqual(['toString', '__proto__']);
    // Keyed `__proto__` as JSON has it: an own key, which `{ __proto__: … }` would not make.
    const answers = Object.fromEntries([
      ['toString', 'No'],
      ['__proto__', 'Right'],
    ]);
    const decided = await decide(approval.id, { decision: 'answer', answers });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.resolution?.outcome).toBe('answered');
    const answered = (await printed(hook)).hookSpecificOutput.decision;
    expect(answered.behavior).toBe('allow');
    expect(Object.entries(answered.updatedInput?.answers ?? {})).toEqual([
      ['toString', 'No'],
      ['__proto__', 'Right'],
    ]);
  });

  it('refuses answers keyed __proto__ or toString that no question asks, and settles nothing', async () => {
    const { approval, hook } = await ask('AskUserQuestion', { questions: [question('Which colour?', ['Red', 'Blue'])] });
    for (const key of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      const answers = Object.fromEntries([[key, 'Red']]);
      const refused = await decide(approval.id, { decision: 'answer', answers });
      expect(refused.status, key).toBe(400);
      expect(refused.body.error, key).toBe(`no such question: ${JSON.stringify(key)}`);
      // Beside the real answer, as well.
      const beside = await decide(approval.id, { decision: 'answer', answers: { ...answers, 'Which colour?': 'Red' } });
      expect(beside.status, key).toBe(400);
    }
    const listed = await api<{ approvals: Approval[] }>(phone, 'GET', '/api/approvals');
    expect(listed.body.approvals.map((a) => a.id)).toContain(approval.id);
    expect((await decide(approval.id, { decision: 'answer', answers: { 'Which colour?': 'Blue' } })).status).toBe(200);
    expect((await printed(hook)).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ 'Which colour?': 'Blue' });
  });

  it('answers a question called constructor, asked alone', async () => {
    const { approval, hook } = await ask('AskUserQuestion', { questions: [question('constructor', ['A', 'B'])] });
    expect((await decide(approval.id, { decision: 'answer', answers: {} })).body.error).toBe('no answer for: "constructor"');
    expect((await decide(approval.id, { decision: 'answer', answers: { constructor: 'B' } })).status).toBe(200);
    expect((await printed(hook)).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ constructor: 'B' });
  });
});

/** One of each kind of character the text rule refuses, with how the refusal names it. */
const REFUSED: [string, string][] = [
  ['evil\u202etxt.exe', 'U+202E'],
  ['csi\u009b2J', 'U+009B'],
  ['next line\u0085', 'U+0085'],
  ['line\u2028separator', 'U+2028'],
  ['\u001b[2J', 'U+001B'],
  ['bell\u0007', 'U+0007'],
  ['carriage\rreturn', 'U+000D'],
  ['delete\u007f', 'U+007F'],
  ['isolate\u2066x\u2069', 'U+2066'],
  ['mark\u200f', 'U+200F'],
  ['arabic mark\u061c', 'U+061C'],
];

describe('the text a device sends to Claude', () => {
  it('refuses a deny message with a control, separator or bidi character, naming it, and settles nothing', async () => {
    const { approval, hook } = await ask('Bash', { command: 'rm -rf build', description: 'Clean the build' });
    for (const [text, code] of REFUSED) {
      const refused = await decide(approval.id, { decision: 'deny', message: `Use the staging server ${text}` });
      expect(refused.status, code).toBe(400);
      expect(refused.body.error, code).toContain(`message: must not contain`);
      expect(refused.body.error, code).toContain(`(found ${code})`);
    }
    const listed = await api<{ approvals: Approval[] }>(phone, 'GET', '/api/approvals');
    expect(listed.body.approvals.map((a) => a.id)).toContain(approval.id);
    // Tab and newline are text: they reach Claude as written.
    const message = 'Not this one.\n\tUse the staging server.';
    expect((await decide(approval.id, { decision: 'deny', message })).status).toBe(200);
    expect((await printed(hook)).hookSpecificOutput.decision).toEqual({ behavior: 'deny', message });
  });

  it('refuses answers, typed ones and the questions they are keyed by, holding such a character', async () => {
    const { approval, hook } = await ask('AskUserQuestion', { questions: [question('Which colour?', ['Red', 'Blue'])] });
    for (const [text, code] of REFUSED) {
      // Typed under "Other…": free text, not one of the labels.
      const typed = await decide(approval.id, { decision: 'answer', answers: { 'Which colour?': `Green ${text}` } });
      expect(typed.status, code).toBe(400);
      expect(typed.body.error, code).toContain(`(found ${code})`);
      const keyed = await decide(approval.id, { decision: 'answer', answers: { [`Which colour?${text}`]: 'Red' } });
      expect(keyed.status, code).toBe(400);
      expect(keyed.body.error, code).toContain(`(found ${code})`);
    }
    expect((await decide(approval.id, { decision: 'answer', answers: { 'Which colour?': 'Green,\tthen blue' } })).status).toBe(200);
    expect((await printed(hook)).hookSpecificOutput.decision.updatedInput?.answers).toEqual({ 'Which colour?': 'Green,\tthen blue' });
  });
});
