import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DecisionBody } from '../../../../protocol/api.js';
import { DecisionBody as DecisionBodySchema } from '../../../../protocol/api.js';
import type { ApprovalServerMessage } from '../../../../protocol/approvals.js';
import { APPROVAL_LIMITS, type ApprovalRequest, ApprovalStore, alreadyResolved, type HeldHook } from '../../../../agent/approvals/approval-store.js';
import { DEFAULT_DENY_MESSAGE, type HookDecision } from '../../../../agent/approvals/decision.js';
import { describeRequest, type PermissionRequestPayload } from '../../../../agent/approvals/summary.js';
import { createLogger } from '../../../../agent/util/log.js';
import { capturedHook } from '../../../support/status.js';

const log = createLogger({ stderr: false });

function request(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    tabId: 'tab-1',
    sessionId: 's-1',
    kind: 'permission',
    tool: 'Bash',
    summary: { title: 'Bash: npm test', description: 'Run the tests', body: 'npm test', diff: null, path: null },
    questions: [],
    options: [],
    alwaysAllow: 'Always allow access to /opt/hooks (this session)',
    toolInput: { command: 'npm test', description: 'Run the tests' },
    questionKeys: [],
    suggestions: [{ type: 'addDirectories', directories: ['/opt/hooks'], destination: 'session' }],
    ...over,
  };
}

/** A held hook that records every reply it is given: the test is that there is exactly one. */
function heldHook(): HeldHook & { replies: (HookDecision | null)[] } {
  const replies: (HookDecision | null)[] = [];
  return { replies, reply: (d) => replies.push(d) };
}

function store(limits = APPROVAL_LIMITS, keys: ConstructorParameters<typeof ApprovalStore>[2] = null) {
  const s = new ApprovalStore(log, limits, keys);
  const messages: ApprovalServerMessage[] = [];
  s.on('message', (m) => messages.push(m));
  return { s, messages };
}

const device = { kind: 'device' as const, name: 'Pixel 8' };
const laptop = { kind: 'device' as const, name: 'Laptop' };

afterEach(() => {
  vi.useRealTimers();
});

describe('ApprovalStore', () => {
  it('opens an approval, tells clients, and lists it until a decision answers the held hook once', async () => {
    const { s, messages } = store();
    const held = heldHook();
    const approval = s.add(request(), held);
    expect(approval).not.toBeNull();
    expect(approval?.id).toMatch(/^ap-[a-z0-9]{10}$/);
    expect(approval?.expiresAt).toBe((approval?.createdAt ?? 0) + APPROVAL_LIMITS.holdMs);
    expect(approval).not.toHaveProperty('toolInput');
    expect(approval).not.toHaveProperty('suggestions');
    expect(s.list()).toEqual([approval]);
    expect(messages).toEqual([{ type: 'approval-opened', approval }]);

    const result = await s.decide(approval?.id ?? '', { decision: 'allow' }, device);
    expect(result).toMatchObject({ ok: true, resolution: { outcome: 'approved', by: device, tabId: 'tab-1', message: null } });
    expect(held.replies).toEqual([{ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }]);
    expect(s.list()).toEqual([]);
    expect(messages.at(-1)).toMatchObject({ type: 'approval-resolved', resolution: { id: approval?.id, outcome: 'approved' } });
  });

  it('answers a later decision with 409, naming who answered first and how, and never replies twice', async () => {
    const { s } = store();
    const held = heldHook();
    const approval = s.add(request(), held);
    const id = approval?.id ?? '';
    await s.decide(id, { decision: 'deny', message: 'not now' }, laptop);
    const late = await s.decide(id, { decision: 'allow' }, device);
    expect(late).toMatchObject({ ok: false, status: 409, error: 'already denied by Laptop', resolution: { outcome: 'denied', message: 'not now' } });
    expect(held.replies).toHaveLength(1);
    expect(held.replies[0]?.hookSpecificOutput.decision).toEqual({ behavior: 'deny', message: 'not now' });
  });

  it('lets exactly one of many decisions made at the same moment win', async () => {
    const { s } = store();
    const held = heldHook();
    const id = s.add(request(), held)?.id ?? '';
    const bodies: DecisionBody[] = [{ decision: 'deny' }, { decision: 'allow' }, { decision: 'allow-always' }, { decision: 'allow' }];
    const results = await Promise.all(bodies.map((b, i) => s.decide(id, b, { kind: 'device', name: `d${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(3);
    expect(held.replies).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: true, resolution: { outcome: 'denied', message: DEFAULT_DENY_MESSAGE } });
  });

  it('gives Claude its own suggestions back for "always allow", and refuses it where Claude offered none', async () => {
    const { s } = store();
    const held = heldHook();
    const id = s.add(request(), held)?.id ?? '';
    const none = s.add(request({ suggestions: [], alwaysAllow: null }), heldHook())?.id ?? '';
    expect(await s.decide(none, { decision: 'allow-always' }, device)).toMatchObject({ ok: false, status: 400 });
    expect(s.get(none)).toBeDefined();
    await s.decide(id, { decision: 'allow-always' }, device);
    expect(held.replies[0]?.hookSpecificOutput.decision).toEqual({
      behavior: 'allow',
      updatedPermissions: [{ type: 'addDirectories', directories: ['/opt/hooks'], destination: 'session' }],
    });
  });

  it('answers a question with the questions and the answers, as Claude takes them', async () => {
    const { s } = store();
    const held = heldHook();
    const questions = [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Red', description: null }], multiSelect: false }];
    const toolInput = { questions: [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Red', description: 'A red button' }], multiSelect: false }] };
    const id = s.add(request({ kind: 'question', tool: 'AskUserQuestion', questions, toolInput, suggestions: [] }), held)?.id ?? '';
    expect(await s.decide(id, { decision: 'allow' }, device)).toMatchObject({ ok: false, status: 400 });
    expect(await s.decide(id, { decision: 'answer', answers: { 'Something else?': 'x' } }, device)).toMatchObject({ ok: false, status: 400, error: expect.stringContaining('no such question') });
    expect(await s.decide(id, { decision: 'answer', answers: {} }, device)).toMatchObject({ ok: false, status: 400, error: expect.stringContaining('no answer for') });
    expect(held.replies).toEqual([]);
    const ok = await s.decide(id, { decision: 'answer', answers: { 'Which colour?': 'Red' } }, device);
    expect(ok).toMatchObject({ ok: true, resolution: { outcome: 'answered' } });
    expect(held.replies[0]?.hookSpecificOutput.decision).toEqual({ behavior: 'allow', updatedInput: { ...toolInput, answers: { 'Which colour?': 'Red' } } });
  });

  it('answers Claude with its own question text and labels, whatever the card shows of them', async () => {
    const { s } = store();
    const held = heldHook();
    const raw = 'Colour\u202e?';
    const toolInput = {
      questions: [
        { question: raw, header: 'C', options: [{ label: 'Red\u0007' }, { label: 'Blue' }], multiSelect: true },
        { question: 'Name?', header: 'N', options: [{ label: 'x' }], multiSelect: false },
      ],
    };
    const described = describeRequest({ ...capturedHook('PermissionRequest'), tool_name: 'AskUserQuestion', tool_input: toolInput } as unknown as PermissionRequestPayload);
    const card = described.questions;
    expect(card[0]?.question).not.toBe(raw);
    const id = s.add(request({ kind: 'question', tool: 'AskUserQuestion', questions: card, questionKeys: described.questionKeys, toolInput, suggestions: [] }), held)?.id ?? '';
    const red = card[0]?.options[0]?.label ?? '';
    const result = await s.decide(id, { decision: 'answer', answers: { [card[0]?.question ?? '']: `${red}, Blue`, 'Name?': 'Something of my own' } }, device);
    expect(result.ok).toBe(true);
    expect(held.replies[0]?.hookSpecificOutput.decision).toEqual({
      behavior: 'allow',
      updatedInput: { ...toolInput, answers: { [raw]: 'Red\u0007, Blue', 'Name?': 'Something of my own' } },
    });
  });

  it('answers questions called like Object’s own properties, keyed as Claude asked them', async () => {
    const { s } = store();
    const held = heldHook();
    const names = ['toString', '__proto__', 'constructor'];
    const questions = names.map((question) => ({ question, header: null, options: [{ label: 'Yes', description: null }], multiSelect: false }));
    const toolInput = { questions: names.map((question) => ({ question, header: 'H', options: [{ label: 'Yes' }], multiSelect: false })) };
    const id = s.add(request({ kind: 'question', tool: 'AskUserQuestion', questions, toolInput, suggestions: [] }), held)?.id ?? '';
    const parse = (json: string) => DecisionBodySchema.parse(JSON.parse(json));
    expect(await s.decide(id, parse('{"decision":"answer","answers":{"toString":"Yes","constructor":"Yes"}}'), device)).toMatchObject({
      ok: false,
      error: 'no answer for: "__proto__"',
    });
    expect(await s.decide(id, parse('{"decision":"answer","answers":{"toString":"Yes","__proto__":"Yes","constructor":"Yes","valueOf":"x"}}'), device)).toMatchObject({
      ok: false,
      error: 'no such question: "valueOf"',
    });
    const ok = await s.decide(id, parse('{"decision":"answer","answers":{"toString":"Yes","__proto__":"Yes","constructor":"Yes"}}'), device);
    expect(ok.ok).toBe(true);
    expect(JSON.stringify(held.replies[0]?.hookSpecificOutput.decision)).toBe(
      `{"behavior":"allow","updatedInput":${JSON.stringify({ ...toolInput, answers: 'ANSWERS' }).replace('"ANSWERS"', '{"toString":"Yes","__proto__":"Yes","constructor":"Yes"}')}}`,
    );
  });

  it('refuses to answer a question it could not read', async () => {
    const { s } = store();
    const id = s.add(request({ kind: 'question', tool: 'AskUserQuestion', questions: [], suggestions: [] }), heldHook())?.id ?? '';
    expect(await s.decide(id, { decision: 'answer', answers: {} }, device)).toMatchObject({ ok: false, status: 400, error: expect.stringContaining('answer it in the terminal') });
  });

  it('answers a dialog by keys, once, and reports when the keys could not be typed', async () => {
    const typed: string[] = [];
    const { s } = store(APPROVAL_LIMITS, async (_approval, option) => {
      typed.push(option);
      if (option === '2') throw new Error('pane gone');
    });
    const options = [
      { key: '1', label: 'Yes' },
      { key: '2', label: 'No' },
    ];
    const plan = s.add(request({ kind: 'plan', tool: 'ExitPlanMode', options }), null)?.id ?? '';
    expect(await s.decide(plan, { decision: 'allow' }, device)).toMatchObject({ ok: false, status: 400 });
    expect(await s.decide(plan, { decision: 'answer', option: '1' }, device)).toMatchObject({ ok: true, resolution: { outcome: 'answered' } });
    expect(await s.decide(plan, { decision: 'answer', option: '2' }, laptop)).toMatchObject({ ok: false, status: 409 });
    expect(typed).toEqual(['1']);
    const broken = s.add(request({ kind: 'dialog', tool: null, options }), null)?.id ?? '';
    expect(await s.decide(broken, { decision: 'answer', option: '3' }, device)).toMatchObject({ ok: false, status: 400, error: 'the dialog has no option 3' });
    expect(await s.decide(broken, { decision: 'answer', option: '2' }, device)).toMatchObject({ ok: false, status: 502, error: expect.stringContaining('pane gone') });
    expect(typed).toEqual(['1', '2']);
  });

  it('expires an approval at its hold time: the hook is let go with no decision', () => {
    vi.useFakeTimers();
    const { s, messages } = store({ ...APPROVAL_LIMITS, holdMs: 1_000 });
    const held = heldHook();
    s.add(request(), held);
    vi.advanceTimersByTime(999);
    expect(held.replies).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(held.replies).toEqual([null]);
    expect(s.list()).toEqual([]);
    expect(messages.at(-1)).toMatchObject({ type: 'approval-resolved', resolution: { outcome: 'expired', by: { kind: 'agent' } } });
  });

  it('denies at a guardrail’s time, with its message, even past the usual hold; a dialog answered by keys is left alone', () => {
    vi.useFakeTimers();
    const { s, messages } = store({ ...APPROVAL_LIMITS, holdMs: 1_000 });
    const held = heldHook();
    const approval = s.add(request(), held, { denyAfter: { ms: 5_000, message: 'No answer from the phone within 5 minutes' } });
    expect(approval?.expiresAt).toBe((approval?.createdAt ?? 0) + 5_000);
    vi.advanceTimersByTime(4_999);
    expect(held.replies).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(held.replies).toEqual([{ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'No answer from the phone within 5 minutes' } } }]);
    expect(messages.at(-1)).toMatchObject({
      type: 'approval-resolved',
      resolution: { outcome: 'denied', by: { kind: 'agent', name: 'guardrail' }, message: 'No answer from the phone within 5 minutes' },
    });
    // A question is denied the same way: Claude is told, and goes on.
    const asked = heldHook();
    s.add(request({ kind: 'question', tool: 'AskUserQuestion' }), asked, { denyAfter: { ms: 2_000, message: 'away' } });
    vi.advanceTimersByTime(2_000);
    expect(asked.replies[0]?.hookSpecificOutput.decision).toEqual({ behavior: 'deny', message: 'away' });
    // A plan or a dialog holds no hook: the guardrail does not apply, and it expires as before.
    s.add(request({ kind: 'dialog', tool: null }), null, { denyAfter: { ms: 500, message: 'away' } });
    vi.advanceTimersByTime(1_000);
    expect(messages.at(-1)).toMatchObject({ type: 'approval-resolved', resolution: { outcome: 'expired' } });
  });

  it('says when it will deny: at its guardrail\'s time for a held permission or question, never otherwise', () => {
    vi.useFakeTimers();
    const { s, messages } = store({ ...APPROVAL_LIMITS, holdMs: 1_000 });
    const guard = { denyAfter: { ms: 5_000, message: 'away' } };
    const guarded = s.add(request(), heldHook(), guard);
    expect(guarded?.denyAt).toBe((guarded?.createdAt ?? 0) + 5_000);
    expect(guarded?.denyAt).toBe(guarded?.expiresAt);
    expect(messages[0]).toEqual({ type: 'approval-opened', approval: guarded });
    expect(s.add(request({ kind: 'question', tool: 'AskUserQuestion' }), heldHook(), guard)?.denyAt).toBe((guarded?.createdAt ?? 0) + 5_000);
    // Left to the terminal when its hold ends: no guardrail, no hook held, or a dialog.
    expect(s.add(request(), heldHook())?.denyAt).toBeNull();
    expect(s.add(request(), heldHook(), { denyAfter: null })?.denyAt).toBeNull();
    expect(s.add(request({ kind: 'dialog', tool: null }), null, guard)?.denyAt).toBeNull();
    expect(s.add(request({ kind: 'plan', tool: 'ExitPlanMode' }), heldHook(), guard)?.denyAt).toBeNull();
    expect(s.list().map((a) => a.denyAt === null)).toEqual([false, false, true, true, true, true]);
  });

  it('settles by what Claude did next: the tool that ran, a new prompt, the session ending', () => {
    const { s } = store();
    const a = heldHook();
    const b = heldHook();
    const c = heldHook();
    const other = heldHook();
    const first = s.add(request({ toolInput: { command: 'a' } }), a);
    const second = s.add(request({ toolInput: { command: 'b' } }), b);
    s.add(request({ tool: 'Edit', toolInput: { file_path: 'x' } }), c);
    s.add(request({ tabId: 'tab-2' }), other);

    // The second call ran (answered "1" in the terminal): only its approval is settled.
    s.settleTool('tab-1', 'Bash', { command: 'b' });
    expect(b.replies).toEqual([null]);
    expect(s.resolution(second?.id ?? '')).toMatchObject({ outcome: 'answered-in-terminal', by: { kind: 'terminal' } });
    expect(a.replies).toEqual([]);
    // A tool with the same name and other input: the oldest of that tool is taken.
    s.settleTool('tab-1', 'Bash', { command: 'changed by the person' });
    expect(s.resolution(first?.id ?? '')?.outcome).toBe('answered-in-terminal');
    s.settleTool('tab-1', 'Read', {});
    expect(c.replies).toEqual([]);

    s.settleTab('tab-1', 'claude-exited');
    expect(c.replies).toEqual([null]);
    expect(other.replies).toEqual([]);
    expect(s.list().map((x) => x.tabId)).toEqual(['tab-2']);
  });

  it('keeps a block while Claude runs: not waited on, settled by its call running, by Claude leaving, or by its answer', async () => {
    const carried: [string, Record<string, unknown>][] = [];
    const { s } = store({ ...APPROVAL_LIMITS, blocksPerTab: 2 }, async (_approval, option, toolInput) => {
      carried.push([option, toolInput]);
      if (toolInput.command === 'busy') throw new Error('Claude is busy: retry once its turn has ended');
    });
    const block = (command: string) =>
      s.add(request({ kind: 'block', toolInput: { command }, options: [{ key: 'retry', label: 'Let Claude retry it' }, { key: 'dismiss', label: 'Dismiss' }] }), null);
    const first = block('curl x | sh');
    expect(first?.expiresAt).toBe((first?.createdAt ?? 0) + APPROVAL_LIMITS.blockKeptMs);
    // Nothing waits on it: the tab's waits are empty, and a turn ending leaves it.
    expect(s.forTab('tab-1')).toEqual([]);
    expect(s.allForTab('tab-1')).toEqual([first]);
    s.settleTab('tab-1', 'answered-in-terminal');
    s.settleTool('tab-1', 'Bash', { command: 'another call' });
    expect(s.get(first?.id ?? '')).toEqual(first);
    // Its own call ran after all (retried at the terminal).
    s.settleTool('tab-1', 'Bash', { command: 'curl x | sh' });
    expect(s.resolution(first?.id ?? '')).toMatchObject({ outcome: 'answered-in-terminal' });

    // Answered: carried out first, settled after; one that could not be stays open, saying why.
    const busy = block('busy');
    expect(await s.decide(busy?.id ?? '', { decision: 'allow' }, device)).toMatchObject({ ok: false, status: 400, error: 'this block is answered with "answer" and one of its options' });
    expect(await s.decide(busy?.id ?? '', { decision: 'answer', option: 'retry' }, device)).toEqual({ ok: false, status: 409, error: 'Claude is busy: retry once its turn has ended', code: 'not-carried-out' });
    expect(s.get(busy?.id ?? '')).toEqual(busy);
    const retried = block('curl y | sh');
    expect(await s.decide(retried?.id ?? '', { decision: 'answer', option: 'retry' }, device)).toMatchObject({ ok: true, resolution: { outcome: 'answered', by: device } });
    expect(carried).toEqual([
      ['retry', { command: 'busy' }],
      ['retry', { command: 'curl y | sh' }],
    ]);

    // At most `blocksPerTab` per tab: the oldest goes as a newer one comes.
    const newer = block('a');
    expect(s.allForTab('tab-1')).toEqual([busy, newer]);
    const newest = block('b');
    expect(s.allForTab('tab-1')).toEqual([newer, newest]);
    expect(s.resolution(busy?.id ?? '')).toMatchObject({ outcome: 'expired' });
    s.settleTab('tab-1', 'claude-exited');
    expect(s.list()).toEqual([]);
  });

  it('answers one decision on a block at a time', async () => {
    let release: () => void = () => undefined;
    const { s } = store(APPROVAL_LIMITS, () => new Promise<void>((resolve) => (release = resolve)));
    const block = s.add(request({ kind: 'block', options: [{ key: 'retry', label: 'Let Claude retry it' }] }), null);
    const first = s.decide(block?.id ?? '', { decision: 'answer', option: 'retry' }, device);
    expect(await s.decide(block?.id ?? '', { decision: 'answer', option: 'retry' }, laptop)).toEqual({ ok: false, status: 409, error: 'this block is being answered already', code: 'not-carried-out' });
    release();
    expect(await first).toMatchObject({ ok: true, resolution: { by: device } });
  });

  it('settles by a tool input nested 100,000 deep, which JSON.stringify cannot write', () => {
    const { s } = store();
    const deep = JSON.parse(`{"command":"x","nested":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as Record<string, unknown>;
    const held = heldHook();
    const other = heldHook();
    const approval = s.add(request({ toolInput: deep }), held);
    s.add(request({ toolInput: { command: 'x' } }), other);
    s.settleTool('tab-1', 'Bash', JSON.parse(JSON.stringify({ command: 'x' })));
    expect(other.replies).toEqual([null]);
    s.settleTool('tab-1', 'Bash', deep);
    expect(held.replies).toEqual([null]);
    expect(s.resolution(approval?.id ?? '')).toMatchObject({ outcome: 'answered-in-terminal' });
  });

  it('knows the PostToolUse of a tool a device approved, and leaves the other request open', async () => {
    const { s } = store();
    const approved = heldHook();
    const waiting = heldHook();
    const id = s.add(request({ toolInput: { command: 'a' } }), approved)?.id ?? '';
    s.add(request({ toolInput: { command: 'b' } }), waiting);
    await s.decide(id, { decision: 'allow' }, device);
    s.settleTool('tab-1', 'Bash', { command: 'a' });
    expect(waiting.replies).toEqual([]);
    expect(s.list()).toHaveLength(1);
  });

  it('refuses more than its limits, per tab and in all, leaving those to the terminal', () => {
    const { s } = store({ ...APPROVAL_LIMITS, maxOpen: 3, maxPerTab: 2 });
    expect(s.add(request(), heldHook())).not.toBeNull();
    expect(s.add(request(), heldHook())).not.toBeNull();
    expect(s.add(request(), heldHook())).toBeNull();
    expect(s.add(request({ tabId: 'tab-2' }), heldHook())).not.toBeNull();
    expect(s.add(request({ tabId: 'tab-3' }), heldHook())).toBeNull();
    expect(s.list()).toHaveLength(3);
  });

  it('lets every held hook go with no decision when the agent stops, and opens nothing after', async () => {
    const { s } = store();
    const held = [heldHook(), heldHook()];
    const ids = held.map((h) => s.add(request(), h)?.id ?? '');
    s.dispose();
    expect(held.map((h) => h.replies)).toEqual([[null], [null]]);
    expect(await s.decide(ids[0] ?? '', { decision: 'allow' }, device)).toMatchObject({ ok: false, status: 409, error: 'already closed: the agent stopped' });
    expect(s.add(request(), heldHook())).toBeNull();
  });

  it('remembers a bounded number of resolutions', async () => {
    const { s } = store({ ...APPROVAL_LIMITS, resolutionsKept: 2 });
    const ids = [0, 1, 2].map(() => s.add(request(), heldHook())?.id ?? '');
    for (const id of ids) await s.decide(id, { decision: 'allow' }, device);
    expect(s.resolution(ids[0] ?? '')).toBeUndefined();
    expect(await s.decide(ids[0] ?? '', { decision: 'allow' }, device)).toMatchObject({ ok: false, status: 404 });
    expect(s.resolution(ids[2] ?? '')?.outcome).toBe('approved');
  });

  it('keeps a throwing hook reply from breaking the store', async () => {
    const { s } = store();
    const id = s.add(request(), { reply: () => { throw new Error('socket gone'); } })?.id ?? '';
    expect(await s.decide(id, { decision: 'allow' }, device)).toMatchObject({ ok: true });
  });
});

describe('alreadyResolved', () => {
  it('says how and by whom', () => {
    const base = { id: 'ap-1', tabId: 't', at: 0, message: null };
    expect(alreadyResolved({ ...base, outcome: 'approved', by: device })).toBe('already approved by Pixel 8');
    expect(alreadyResolved({ ...base, outcome: 'denied', by: { kind: 'cli', name: null } })).toBe('already denied from the CLI');
    expect(alreadyResolved({ ...base, outcome: 'answered-in-terminal', by: { kind: 'terminal', name: null } })).toBe('already answered in the terminal');
  });
});

describe('DecisionBody', () => {
  it('takes each decision with what it may carry', () => {
    expect(DecisionBodySchema.safeParse({ decision: 'allow' }).success).toBe(true);
    expect(DecisionBodySchema.safeParse({ decision: 'deny', message: 'use pnpm\nnot npm' }).success).toBe(true);
    expect(DecisionBodySchema.safeParse({ decision: 'answer', answers: { 'Which?': 'Red, Blue' } }).success).toBe(true);
    expect(DecisionBodySchema.safeParse({ decision: 'answer', option: '2' }).success).toBe(true);
  });

  it('keeps answers keyed __proto__ as their own keys', () => {
    const parsed = DecisionBodySchema.parse(JSON.parse('{"decision":"answer","answers":{"__proto__":"a","toString":"b"}}'));
    expect(Object.entries(parsed.answers ?? {})).toEqual([
      ['__proto__', 'a'],
      ['toString', 'b'],
    ]);
    expect(Object.getPrototypeOf(parsed.answers)).toBe(Object.prototype);
  });

  it('refuses what cannot be meant', () => {
    for (const bad of [
      {},
      { decision: 'approve' },
      { decision: 'answer' },
      { decision: 'answer', option: '1; rm' },
      { decision: 'deny', message: 'a\u001b[2Jb' },
      { decision: 'deny', message: 'a\u009b2Jb' },
      { decision: 'deny', message: 'evil\u202etxt.exe' },
      { decision: 'deny', message: 'line\u2028break' },
      { decision: 'answer', answers: { 'Which?': 'Red\u2066' } },
      { decision: 'answer', answers: { 'Which\u0085?': 'Red' } },
      { decision: 'deny', message: 'x'.repeat(2001) },
      { decision: 'allow', extra: 1 },
      { decision: 'answer', answers: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`q${i}`, 'a'])) },
      { decision: 'answer', answers: [['q', 'a']] },
      { decision: 'answer', answers: 'q' },
    ]) {
      expect(DecisionBodySchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 60)).toBe(false);
    }
  });
});
