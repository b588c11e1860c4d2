import { describe, expect, it } from 'vitest';
import { DecisionBody } from '../../../protocol/api.js';
import { type Approval, BLOCK_OPTIONS } from '../../../protocol/approvals.js';
import { type PushPayload, PUSH_PAYLOAD_MAX } from '../../../protocol/push.js';
import { ApprovalStore } from '../../../agent/approvals/approval-store.js';
import { approvalRequest } from '../../../agent/approvals/from-hooks.js';
import type { PermissionRequestPayload } from '../../../agent/approvals/summary.js';
import { endpointProblem } from '../../../agent/push/push-endpoints.js';
import { approvalPush, closePush, lastSentence, needsInputPush, reviewPush } from '../../../agent/push/push-payloads.js';
import { createLogger } from '../../../agent/util/log.js';
import { capturedHook } from '../../support/status.js';

const approval: Approval = {
  id: 'ap-1234567890',
  tabId: 'tb-1',
  sessionId: 's-1',
  kind: 'permission',
  tool: 'Bash',
  summary: { title: 'Bash: npm test', description: 'Run the tests', body: 'npm test', diff: null, path: null },
  questions: [],
  options: [],
  alwaysAllow: null,
  createdAt: 0,
  expiresAt: 590_000,
  denyAt: null,
};
const place = { tab: 'api server', workspace: 'shop' };

describe('push payloads', () => {
  it('an approval: its title, what Claude said of it, where, and Approve / Deny carrying their decisions', () => {
    expect(approvalPush(approval, place)).toEqual({
      v: 1,
      kind: 'show',
      tag: 'ap-1234567890',
      title: 'Bash: npm test',
      body: 'Run the tests\nshop · api server',
      url: '/?approval=ap-1234567890',
      approvalId: 'ap-1234567890',
      actions: [
        { action: 'approve', title: 'Approve', decision: { decision: 'allow' } },
        { action: 'deny', title: 'Deny', decision: { decision: 'deny' } },
      ],
    });
  });

  it('a question with one choice of two options: both as buttons; anything else is answered in the app', () => {
    const question = { question: 'Which colour?', header: 'Colour', options: ['Red', 'Blue'].map((label) => ({ label, description: null })), multiSelect: false };
    const asked = approvalPush({ ...approval, kind: 'question', tool: 'AskUserQuestion', questions: [question] }, place);
    expect(asked).toMatchObject({ title: 'Which colour?', body: 'Red · Blue\nshop · api server' });
    expect(asked.kind === 'show' && asked.actions).toEqual([
      { action: 'answer-0', title: 'Red', decision: { decision: 'answer', answers: { 'Which colour?': 'Red' } } },
      { action: 'answer-1', title: 'Blue', decision: { decision: 'answer', answers: { 'Which colour?': 'Blue' } } },
    ]);
    // Three options: buttons for two would hide the third; a tap opens the card with all three.
    const three = approvalPush({ ...approval, kind: 'question', questions: [{ ...question, options: [...question.options, { label: 'Green', description: null }] }] }, place);
    expect(three).toMatchObject({ body: 'Red · Blue · Green\nshop · api server', url: `/?approval=${approval.id}` });
    expect(three.kind === 'show' && three.actions).toEqual([]);
    const dialog = approvalPush({ ...approval, kind: 'dialog', options: ['1', '2', '3'].map((key) => ({ key, label: `Option ${key}` })) }, place);
    expect(dialog.kind === 'show' && dialog.actions).toEqual([]);
    const several = approvalPush({ ...approval, kind: 'question', questions: [question, { ...question, question: 'Which size?' }] }, place);
    expect(several.kind === 'show' && several.actions).toEqual([]);
    const multi = approvalPush({ ...approval, kind: 'question', questions: [{ ...question, multiSelect: true }] }, place);
    expect(multi.kind === 'show' && multi.actions).toEqual([]);
    const plan = approvalPush({ ...approval, kind: 'plan', options: [{ key: '1', label: 'Yes, and switch to default' }, { key: '2', label: 'No' }] }, place);
    expect(plan.kind === 'show' && plan.actions.map((a) => a.decision)).toEqual([
      { decision: 'answer', option: '1' },
      { decision: 'answer', option: '2' },
    ]);
  });

  it('a block: says auto mode blocked it, why, and offers Retry and Dismiss as buttons that pass the decision schema', () => {
    const blocked = approvalPush(
      { ...approval, kind: 'block', summary: { ...approval.summary, description: 'Auto mode: [Code from External]' }, options: [...BLOCK_OPTIONS] },
      place,
    );
    expect(blocked).toMatchObject({ title: 'Blocked by auto mode: Bash: npm test', body: 'Auto mode: [Code from External]\nshop · api server' });
    const actions = blocked.kind === 'show' ? blocked.actions : [];
    expect(actions.map((a) => [a.title, a.decision])).toEqual([
      ['Let Claude retry it', { decision: 'answer', option: 'retry' }],
      ['Dismiss', { decision: 'answer', option: 'dismiss' }],
    ]);
    for (const a of actions) expect(DecisionBody.safeParse(a.decision).success).toBe(true);
    expect(DecisionBody.safeParse({ decision: 'answer', option: 'retry; rm -rf /' }).success).toBe(false);
  });

  it('stays under the size push services take, whatever Claude wrote', () => {
    const huge = 'x'.repeat(50_000);
    const payload = approvalPush({ ...approval, summary: { ...approval.summary, title: huge, description: huge } }, { tab: huge, workspace: huge });
    expect(JSON.stringify(payload).length).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX);
    expect(payload.kind === 'show' && payload.actions).toHaveLength(2);
    const review = reviewPush('tb-1', place, `${'word '.repeat(5_000)}. Done.`);
    expect(JSON.stringify(review).length).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX);
  });

  it('a tab waiting in the terminal, a finished turn with Claude’s last sentence, and a close', () => {
    expect(needsInputPush('tb-1', place)).toMatchObject({ tag: 'tab-tb-1', title: 'Claude is waiting for you', body: 'shop · api server: answer in the terminal', url: '/t/tb-1', actions: [] });
    expect(needsInputPush('tb-2', { ...place, tab: 'Codex', agent: 'Codex' })).toMatchObject({ title: 'Codex is waiting for you', body: 'shop · Codex: answer in the terminal' });
    expect(reviewPush('tb-1', place, 'I changed the button.\n\nAll tests pass now!')).toMatchObject({ tag: 'tab-tb-1', title: 'api server is ready for review', body: 'All tests pass now!', url: '/t/tb-1/timeline' });
    expect(reviewPush('tb-1', null, null)).toMatchObject({ title: 'Claude is ready for review', body: 'a Claude session' });
    // What the turn changed follows the answer, and a long answer is cut before it, never it.
    const changed = { files: 3, added: 40, removed: 12 };
    expect(reviewPush('tb-1', place, 'All tests pass now!', changed)).toMatchObject({ body: 'All tests pass now! \u00b7 3 files changed, +40 \u221212' });
    const long = reviewPush('tb-1', place, `${'word '.repeat(500)}end.`, changed);
    expect(long.kind === 'show' && long.body.endsWith(' \u00b7 3 files changed, +40 \u221212')).toBe(true);
    expect(long.kind === 'show' && long.body.length).toBeLessThanOrEqual(600);
    expect(reviewPush('tb-1', place, 'Nothing to change.', { files: 0, added: 0, removed: 0 })).toMatchObject({ body: 'Nothing to change.' });
    expect(closePush('ap-1')).toEqual({ v: 1, kind: 'close', tag: 'ap-1' });
  });

  it('writes out control and bidi characters of Claude’s last message, as the inbox card does', () => {
    const review = reviewPush('tb-1', place, 'Done. Renamed it to report\u202eexe\u001b[2J\u0007 and \u009b2J!');
    expect(review).toMatchObject({ body: 'Renamed it to report\\u202eexe\\x1b[2J\\x07 and \\u009b2J!' });
  });

  it('has no control, separator or bidi character in any string of any payload, and its buttons still answer', async () => {
    const hostile = 'a\u202eb\u001b[31mc\u0007d\u009be\u2028f\u2066g\u200fh\u061ci\u007fj\rk';
    const hostilePlace = { tab: hostile, workspace: hostile };
    const question = { question: hostile, header: hostile, options: [hostile, 'Blue'].map((label) => ({ label, description: hostile })), multiSelect: false };
    const payloads: PushPayload[] = [
      approvalPush({ ...approval, summary: { title: hostile, description: hostile, body: hostile, diff: [hostile], path: hostile } }, hostilePlace),
      approvalPush({ ...approval, kind: 'question', questions: [question] }, hostilePlace),
      approvalPush({ ...approval, kind: 'plan', options: [{ key: '1', label: hostile }] }, hostilePlace),
      needsInputPush('tb-1', hostilePlace),
      reviewPush('tb-1', hostilePlace, hostile),
      reviewPush('tb-1', null, `${hostile}. ${hostile}`),
    ];
    // A body's lines are apart on purpose: newline is the one control it may hold.
    const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const strings = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]) : [];
    for (const payload of payloads) {
      for (const text of strings(payload)) expect(text, JSON.stringify(payload)).not.toMatch(unsafe);
    }
    expect(payloads[4]).toMatchObject({ title: expect.stringContaining('a\\u202eb\\x1b[31mc\\x07d'), body: expect.stringContaining('a\\u202eb\\x1b[31mc\\x07d') });

    // A question's button still answers it: the card's text passes the rule as it is.
    const asked = 'Which \u202ecolour\u0007?';
    const payload = {
      ...capturedHook('PermissionRequest'),
      tool_name: 'AskUserQuestion',
      tool_input: { questions: [{ question: asked, header: 'C', options: [{ label: 'Red\u001b[0m' }, { label: 'Blue' }], multiSelect: false }] },
    } as unknown as PermissionRequestPayload;
    const request = approvalRequest('tb-1', payload);
    if (request === null) throw new Error('not offered');
    const replies: unknown[] = [];
    const store = new ApprovalStore(createLogger({ stderr: false }));
    const opened = store.add(request, { reply: (decision) => replies.push(decision) });
    if (opened === null) throw new Error('not opened');
    const pushed = approvalPush(opened, place);
    const button = pushed.kind === 'show' ? pushed.actions[0] : undefined;
    // What the service worker posts, through the route's schema, settles the approval.
    const decided = await store.decide(opened.id, DecisionBody.parse(JSON.parse(JSON.stringify(button?.decision))), { kind: 'device', name: 'Pixel 8' });
    expect(decided.ok).toBe(true);
    expect(replies).toEqual([{ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { ...request.toolInput, answers: { [asked]: 'Red\u001b[0m' } } } } }]);
    store.dispose();
  });

  it('takes the last sentence of an answer', () => {
    expect(lastSentence('First. Second one? Third!')).toBe('Third!');
    expect(lastSentence('no full stop at all')).toBe('no full stop at all');
    expect(lastSentence('  ')).toBe('');
  });
});

describe('push endpoints', () => {
  const rules = { extraHosts: [], insecureLoopback: false };

  it('accepts the browsers’ push services over https', () => {
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QAbc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ]) {
      expect(endpointProblem(ok, rules), ok).toBeNull();
    }
  });

  it('refuses anything else, saying why', () => {
    expect(endpointProblem('http://fcm.googleapis.com/x', rules)).toBe('the endpoint must be https');
    expect(endpointProblem('https://fcm.googleapis.com:8443/x', rules)).toBe('the endpoint must use the standard https port');
    expect(endpointProblem('https://user:pw@fcm.googleapis.com/x', rules)).toBe('the endpoint must not carry credentials');
    expect(endpointProblem('https://fcm.googleapis.com.evil.test/x', rules)).toMatch(/is not a known push service/);
    expect(endpointProblem('https://evilfcm.googleapis.com.test/x', rules)).toMatch(/is not a known push service/);
    expect(endpointProblem('https://169.254.169.254/latest', rules)).toMatch(/is not a known push service/);
    expect(endpointProblem('not a url', rules)).toBe('the endpoint is not a URL');
    expect(endpointProblem('http://127.0.0.1:9000/push/1', rules)).toBe('the endpoint must be https');
  });

  it('takes more hosts and the loopback test endpoint only when told', () => {
    expect(endpointProblem('https://push.example.org/x', { extraHosts: ['push.example.org'], insecureLoopback: false })).toBeNull();
    expect(endpointProblem('http://127.0.0.1:9000/push/1', { extraHosts: [], insecureLoopback: true })).toBeNull();
    expect(endpointProblem('http://127.0.0.1/push/1', { extraHosts: [], insecureLoopback: true })).toBe('the endpoint must be https');
    expect(endpointProblem('http://localhost:9000/push/1', { extraHosts: [], insecureLoopback: true })).toBe('the endpoint must be https');
  });
});
