import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compactJson,
  describeRequest,
  describeSuggestions,
  type PermissionRequestPayload,
  type RequestDescription,
  readQuestions,
  SUMMARY_LIMITS,
} from '../../../../agent/approvals/summary.js';
import { cardText } from '../../../../agent/util/card-text.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332');

function permissionRequests(file: string): PermissionRequestPayload[] {
  return readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { hook_event_name: string })
    .filter((p): p is PermissionRequestPayload => p.hook_event_name === 'PermissionRequest');
}

/** A payload as the hook route would pass it; `input` and `extra` may be anything, for the fuzzing. */
function request(tool: unknown, input: unknown, extra: Record<string, unknown> = {}): PermissionRequestPayload {
  return {
    session_id: 's1',
    cwd: '/home/user/proj',
    hook_event_name: 'PermissionRequest',
    tool_name: tool,
    tool_input: input,
    ...extra,
  } as unknown as PermissionRequestPayload;
}

/** Every string anywhere in a description. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

// What must never reach a card raw: C0 but tab and newline, DEL, C1, separators, bidi controls.
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The properties every description has, whatever went in. */
function expectSafe(d: RequestDescription): void {
  // questionKeys are Claude's own text, kept by the agent to answer with, never shown.
  for (const s of strings({ ...d, questionKeys: [] })) {
    expect(RAW_UNSAFE.test(s), JSON.stringify(s.slice(0, 80))).toBe(false);
    expect(s.length).toBeLessThanOrEqual(SUMMARY_LIMITS.command);
  }
  expect(d.summary.title).not.toContain('\n');
  expect(d.summary.title.length).toBeLessThanOrEqual(SUMMARY_LIMITS.title);
  if (d.summary.body !== null) expect(d.summary.body.length).toBeLessThanOrEqual(SUMMARY_LIMITS.plan);
  if (d.summary.diff !== null) expect(d.summary.diff.length).toBeLessThanOrEqual(SUMMARY_LIMITS.diffLines + 1);
  for (const line of d.summary.diff ?? []) expect(line.length).toBeLessThanOrEqual(SUMMARY_LIMITS.diffLine + 1);
  expect(d.questions.length).toBeLessThanOrEqual(SUMMARY_LIMITS.questions);
  for (const q of d.questions) expect(q.options.length).toBeLessThanOrEqual(SUMMARY_LIMITS.options);
  if (d.alwaysAllow !== null) expect(d.alwaysAllow.length).toBeLessThanOrEqual(SUMMARY_LIMITS.alwaysAllow);
}

describe('describeRequest on captured Claude Code 2.1.332 payloads', () => {
  it('describes the Bash PermissionRequest with its command, description and directory suggestion', () => {
    const [payload] = permissionRequests('hooks.jsonl');
    expect(payload).toBeDefined();
    const d = describeRequest(payload as PermissionRequestPayload);
    expect(d).toEqual({
      kind: 'permission',
      tool: 'Bash',
      summary: {
        title: 'Bash: echo hello-from-mock > /opt/hooks/out.txt',
        description: 'Write a file',
        body: 'echo hello-from-mock > /opt/hooks/out.txt',
        diff: null,
        path: null,
      },
      questions: [],
      questionKeys: [],
      alwaysAllow: 'Always allow access to /opt/hooks (this session)',
    });
  });

  it('reads the AskUserQuestion questions and options', () => {
    const payload = permissionRequests('ask-user-question/hooks.jsonl').find((p) => p.tool_name === 'AskUserQuestion');
    const d = describeRequest(payload as PermissionRequestPayload);
    expect(d.kind).toBe('question');
    expect(d.tool).toBe('AskUserQuestion');
    expect(d.summary.title).toBe('Which colour should the button be?');
    expect(d.questions).toEqual([
      {
        question: 'Which colour should the button be?',
        header: 'Colour',
        options: [
          { label: 'Red', description: 'A red button' },
          { label: 'Blue', description: 'A blue button' },
        ],
        multiSelect: false,
      },
    ]);
    expect(d.alwaysAllow).toBeNull();
  });

  it('describes ExitPlanMode, whose input is empty in 2.1.332, as a plan with no body', () => {
    const payload = permissionRequests('ask-user-question/hooks.jsonl').find((p) => p.tool_name === 'ExitPlanMode');
    const d = describeRequest(payload as PermissionRequestPayload);
    expect(d.kind).toBe('plan');
    expect(d.summary).toEqual({ title: 'Exit plan mode?', description: null, body: null, diff: null, path: null });
    expect(d.questions).toEqual([]);
  });
});

describe('describeRequest by tool', () => {
  it('shows a long multi-line Bash command on one bounded title line, and in full as the body', () => {
    const command = `for f in ${'x'.repeat(200)}; do\n  echo "$f"\ndone`;
    const d = describeRequest(request('Bash', { command }));
    expect(d.summary.title.startsWith(`Bash: for f in ${'x'.repeat(20)}`)).toBe(true);
    expect(d.summary.title.endsWith('…')).toBe(true);
    expect(d.summary.title.length).toBeLessThanOrEqual('Bash: '.length + SUMMARY_LIMITS.hint + 1);
    expect(d.summary.body).toBe(command);
    expect(d.summary.description).toBeNull();
  });

  it('says a Bash command continues on further lines', () => {
    expect(describeRequest(request('Bash', { command: 'npm test\nnpm run lint' })).summary.title).toBe('Bash: npm test…');
  });

  it('bounds a huge Bash command', () => {
    const d = describeRequest(request('Bash', { command: 'y'.repeat(1_000_000) }));
    expect(d.summary.body?.length).toBe(SUMMARY_LIMITS.command);
    expect(d.summary.body?.endsWith('…')).toBe(true);
  });

  it('shows a one-line change inside a large Edit block as that line with a line of context', () => {
    const before = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i === 25 ? 'line twenty-five' : l));
    const d = describeRequest(
      request('Edit', { file_path: '/home/user/proj/src/app.ts', old_string: before.join('\n'), new_string: after.join('\n') }),
    );
    expect(d.kind).toBe('permission');
    expect(d.summary.title).toBe('Edit src/app.ts');
    expect(d.summary.path).toBe('/home/user/proj/src/app.ts');
    expect(d.summary.diff).toEqual([' line 24', '-line 25', '+line twenty-five', ' line 26']);
    expect(d.summary.description).toBeNull();
  });

  it('shows a whole-block Edit as removed lines then added lines, and says when it replaces all', () => {
    const d = describeRequest(request('Edit', { file_path: '/etc/hosts', old_string: 'a\nb', new_string: 'c', replace_all: true }));
    expect(d.summary.title).toBe('Edit /etc/hosts');
    expect(d.summary.diff).toEqual(['-a', '-b', '+c']);
    expect(d.summary.description).toBe('Replaces every occurrence');
  });

  it('shows a pure insertion and a Windows file without line-ending noise', () => {
    const d = describeRequest(request('Edit', { file_path: '/w/a.txt', old_string: 'one\r\ntwo\r\n', new_string: 'one\r\nnew\r\ntwo\r\n' }));
    expect(d.summary.diff).toEqual([' one', '+new', ' two']);
  });

  it('shows each MultiEdit edit as a block, separated, skipping malformed edits', () => {
    const d = describeRequest(
      request('MultiEdit', {
        file_path: '/home/user/proj/a.ts',
        edits: [{ old_string: 'x = 1', new_string: 'x = 2' }, null, { old_string: 5 }, { old_string: 'y', new_string: 'z' }],
      }),
    );
    expect(d.summary.title).toBe('Edit a.ts');
    expect(d.summary.diff).toEqual(['-x = 1', '+x = 2', '…', '-y', '+z']);
    expect(d.summary.description).toBe('2 edits');
  });

  it('shows a Write as added lines, bounded in lines and in line length', () => {
    const content = `${'w'.repeat(500)}\n${Array.from({ length: 199 }, (_, i) => `row ${i}`).join('\n')}\n`;
    const d = describeRequest(request('Write', { file_path: '/home/user/proj/big.txt', content }));
    expect(d.summary.title).toBe('Write big.txt');
    const diff = d.summary.diff ?? [];
    expect(diff).toHaveLength(SUMMARY_LIMITS.diffLines + 1);
    expect(diff[0]).toBe(`+${'w'.repeat(SUMMARY_LIMITS.diffLine - 1)}…`);
    expect(diff[1]).toBe('+row 0');
    expect(diff.at(-1)).toBe('… 120 more lines');
  });

  it('writes an empty file as an empty diff', () => {
    expect(describeRequest(request('Write', { file_path: '/tmp/empty', content: '' })).summary.diff).toEqual([]);
  });

  it('keeps the end of a long path in a title, the whole of it in `path`', () => {
    const path = `/${'deep/'.repeat(40)}file.ts`;
    const d = describeRequest(request('Write', { file_path: path, content: 'x' }));
    expect(d.summary.title.startsWith('Write …')).toBe(true);
    expect(d.summary.title.endsWith('/deep/file.ts')).toBe(true);
    expect(d.summary.path).toBe(path);
  });

  it('describes a NotebookEdit by its notebook path', () => {
    const d = describeRequest(
      request('NotebookEdit', { notebook_path: '/home/user/proj/nb.ipynb', cell_id: 'c3', new_source: 'print(1)', edit_mode: 'insert' }),
    );
    expect(d.summary.title).toBe('Edit nb.ipynb');
    expect(d.summary.path).toBe('/home/user/proj/nb.ipynb');
    expect(d.summary.diff).toEqual(['+print(1)']);
    expect(d.summary.description).toBe('Insert a cell after c3');
  });

  it('shows a WebFetch URL and prompt, and a WebSearch query', () => {
    const fetch = describeRequest(request('WebFetch', { url: 'https://example.com/docs', prompt: 'Summarise the API' }));
    expect(fetch.summary.title).toBe('WebFetch https://example.com/docs');
    expect(fetch.summary.body).toBe('https://example.com/docs\n\nSummarise the API');
    const search = describeRequest(request('WebSearch', { query: 'vitest fake timers', allowed_domains: ['vitest.dev'] }));
    expect(search.summary.title).toBe('WebSearch vitest fake timers');
    expect(search.summary.body).toBe('vitest fake timers\nOnly from: vitest.dev');
  });

  it('names an MCP tool by server and tool, with its input as compact JSON', () => {
    const d = describeRequest(request('mcp__github__create_issue', { repo: 'a/b', title: 'Bug', labels: ['x'] }));
    expect(d.kind).toBe('permission');
    expect(d.tool).toBe('mcp__github__create_issue');
    expect(d.summary.title).toBe('MCP github › create_issue');
    expect(d.summary.body).toBe('{"repo":"a/b","title":"Bug","labels":["x"]}');
  });

  it('falls back to the generic card for a malformed MCP name', () => {
    expect(describeRequest(request('mcp__broken', { a: 1 })).summary.title).toBe('mcp__broken');
  });

  it('gives Read, Grep and unknown tools their name, a hint and the input as JSON', () => {
    const read = describeRequest(request('Read', { file_path: '/home/user/proj/README.md', limit: 20 }));
    expect(read.summary).toEqual({
      title: 'Read README.md',
      description: null,
      body: '{"file_path":"/home/user/proj/README.md","limit":20}',
      diff: null,
      path: '/home/user/proj/README.md',
    });
    expect(describeRequest(request('Grep', { pattern: 'TODO', path: 'src' })).summary.title).toBe('Grep TODO in src');
    expect(describeRequest(request('Glob', { pattern: '**/*.ts' })).summary.title).toBe('Glob **/*.ts');
    const unknown = describeRequest(request('FutureTool', { depth: 3 }));
    expect(unknown.summary.title).toBe('FutureTool');
    expect(unknown.summary.body).toBe('{"depth":3}');
    expect(describeRequest(request('FutureTool', {})).summary.body).toBeNull();
  });

  it('falls back to the generic card when a known tool lacks its fields', () => {
    const d = describeRequest(request('Edit', { file_path: '/a.ts', old_string: 1 }));
    expect(d.summary.title).toBe('Edit /a.ts');
    expect(d.summary.diff).toBeNull();
    expect(d.summary.body).toBe('{"file_path":"/a.ts","old_string":1}');
    expect(describeRequest(request('Bash', {})).summary).toMatchObject({ title: 'Bash', body: null });
  });

  it('shows a plan when a version of ExitPlanMode carries one', () => {
    const plan = `# Plan\n\n1. Do it\n${'z'.repeat(20_000)}`;
    const d = describeRequest(request('ExitPlanMode', { plan }));
    expect(d.kind).toBe('plan');
    expect(d.summary.title).toBe('Exit plan mode?');
    expect(d.summary.body?.startsWith('# Plan\n\n1. Do it\n')).toBe(true);
    expect(d.summary.body?.length).toBe(SUMMARY_LIMITS.plan);
  });
});

describe('AskUserQuestion shapes', () => {
  it('skips malformed questions and options and bounds their number', () => {
    const questions = [
      null,
      'a string',
      { header: 'no question' },
      { question: 'Pick one?', header: 42, options: [null, { label: '' }, { label: 'A', description: 7 }, { label: 'B', description: 'b' }], multiSelect: 'yes' },
      { question: 'Many?', options: Array.from({ length: 40 }, (_, i) => ({ label: `o${i}` })), multiSelect: true },
      ...Array.from({ length: 20 }, (_, i) => ({ question: `Q${i}?`, options: 'none' })),
    ];
    const d = describeRequest(request('AskUserQuestion', { questions }));
    expect(d.kind).toBe('question');
    expect(d.summary.title).toBe('Pick one?');
    expect(d.questions).toHaveLength(SUMMARY_LIMITS.questions);
    expect(d.questions[0]).toEqual({
      question: 'Pick one?',
      header: null,
      options: [
        { label: 'A', description: null },
        { label: 'B', description: 'b' },
      ],
      multiSelect: false,
    });
    expect(d.questions[1]?.options).toHaveLength(SUMMARY_LIMITS.options);
    expect(d.questions[1]?.multiSelect).toBe(true);
    expect(d.questions[2]).toEqual({ question: 'Q0?', header: null, options: [], multiSelect: false });
  });

  it('shows the input when no question can be read', () => {
    const d = describeRequest(request('AskUserQuestion', { questions: 'what?' }));
    expect(d.kind).toBe('question');
    expect(d.questions).toEqual([]);
    expect(d.summary.title).toBe('AskUserQuestion');
    expect(d.summary.body).toBe('{"questions":"what?"}');
    expect(readQuestions(null)).toEqual([]);
  });

  it('bounds a long question in the title and in the question', () => {
    const question = `${'Why '.repeat(1000)}?`;
    const d = describeRequest(request('AskUserQuestion', { questions: [{ question, options: [] }] }));
    expect(d.summary.title.length).toBeLessThanOrEqual(SUMMARY_LIMITS.hint + 1);
    expect(d.questions[0]?.question.length).toBe(SUMMARY_LIMITS.question);
  });
});

describe('alwaysAllow', () => {
  it('is null without suggestions or with none readable', () => {
    expect(describeRequest(request('Bash', { command: 'ls' })).alwaysAllow).toBeNull();
    expect(describeSuggestions([])).toBeNull();
    expect(describeSuggestions('addRules')).toBeNull();
    expect(describeSuggestions([null, 3, { type: 'teleport' }, { type: 'addRules', rules: 'Bash' }, { type: 'setMode' }])).toBeNull();
  });

  it('words rules with their destination', () => {
    expect(
      describeSuggestions([
        { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' },
      ]),
    ).toBe('Always allow Bash(npm test:*) (this project, local settings)');
    expect(describeSuggestions([{ type: 'addRules', rules: [{ toolName: 'WebSearch' }, { toolName: 'Read', ruleContent: '//tmp/**' }], behavior: 'allow', destination: 'userSettings' }])).toBe(
      'Always allow WebSearch, Read(//tmp/**) (all projects, user settings)',
    );
    expect(describeSuggestions([{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'rm:*' }], behavior: 'deny', destination: 'projectSettings' }])).toBe(
      'Always deny Bash(rm:*) (this project, shared settings)',
    );
  });

  it('words directories, modes and removals, and joins several suggestions', () => {
    expect(
      describeSuggestions([
        { type: 'addDirectories', directories: ['/opt/hooks', '/srv'], destination: 'session' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
        { type: 'removeDirectories', directories: ['/old'] },
      ]),
    ).toBe('Always allow access to /opt/hooks, /srv (this session); Switch to accept edits mode; Remove access to /old');
    expect(describeSuggestions([{ type: 'setMode', mode: 'warpSpeed', destination: 'localSettings' }])).toBe(
      'Switch to warpSpeed mode (this project, local settings)',
    );
  });

  it('does not take inherited names for destinations or modes', () => {
    expect(describeSuggestions([{ type: 'addDirectories', directories: ['/x'], destination: 'constructor' }])).toBe('Always allow access to /x');
    expect(describeSuggestions([{ type: 'setMode', mode: 'toString' }])).toBe('Switch to toString mode');
  });

  it('bounds long lists and escapes what it quotes', () => {
    const many = describeSuggestions([{ type: 'addDirectories', directories: Array.from({ length: 12 }, (_, i) => `/d${i}`), destination: 'session' }]);
    expect(many).toBe('Always allow access to /d0, /d1, /d2, /d3, /d4, /d5, /d6, /d7 and 4 more (this session)');
    const sneaky = describeSuggestions([{ type: 'addDirectories', directories: ['/a\u001b[2J\n/b'], destination: 'session' }]);
    expect(sneaky).toBe('Always allow access to /a\\x1b[2J\\x0a/b (this session)');
  });
});

describe('safety on any input', () => {
  it('escapes control and bidi characters everywhere but keeps tabs and newlines in bodies', () => {
    const d = describeRequest(
      request('Bash', { command: 'echo \u001b]0;owned\u0007\tok\nrm -rf \u202e/', description: 'A\u0000B\u009bC' }),
    );
    expectSafe(d);
    expect(d.summary.title).toBe('Bash: echo \\x1b]0;owned\\x07\tok…');
    expect(d.summary.body).toBe('echo \\x1b]0;owned\\x07\tok\nrm -rf \\u202e/');
    expect(d.summary.description).toBe('A\\x00B\\u009bC');
  });

  it('escapes C1 and bidi characters in compact JSON, as JSON escapes', () => {
    const body = describeRequest(request('Mystery', { s: 'a\u202eb\u0085c\u001bd' })).summary.body;
    expect(body).toBe('{"s":"a\\u202eb\\u0085c\\u001bd"}');
    expect(JSON.parse(body as string)).toEqual({ s: 'a\u202eb\u0085c\u001bd' });
  });

  it('never cuts an escape in half', () => {
    const out = cardText(`${'a'.repeat(8)}\u001b${'b'.repeat(20)}`, 10);
    expect(out).toBe(`${'a'.repeat(8)}…`);
    // Two escapes and the ellipsis would be 9 units: the second escape goes whole.
    expect(cardText('\u001b\u001b\u001b', 8)).toBe('\\x1b…');
    expect(cardText('\u001b\u001b\u001b', 9)).toBe('\\x1b\\x1b…');
    expect(cardText('\u202e', 4)).toBe('…');
    expect(cardText('short', 10)).toBe('short');
  });

  it('builds compact JSON of a huge, wide or deep input within its budget', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v'.repeat(100)]));
    const sparse = new Array(1e9);
    // A walk over the billion holes would not end within the test's deadline; what a card
    // costs on the hook path is the bench's approvals row.
    for (const input of [deep, wide, sparse, { s: 'x'.repeat(5_000_000) }]) {
      const json = compactJson(input);
      expect(json.length).toBeLessThanOrEqual(SUMMARY_LIMITS.body);
    }
    expect(compactJson(deep)).toBe('[[[[[[[["…"]]]]]]]]');
    expect(compactJson({ a: undefined, b: () => 1, c: [undefined], d: Number.NaN, e: 10n, f: null })).toBe('{"c":[null],"d":null,"e":10,"f":null}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(compactJson(cyclic)).toBe('{"self":{"self":{"self":{"self":{"self":{"self":{"self":{"self":"…"}}}}}}}}');
  });

  it('never throws on junk, and keeps every string bounded and safe', () => {
    const junk: unknown[] = [
      null,
      undefined,
      0,
      -1.5,
      Number.NaN,
      true,
      'string input',
      [],
      [1, 'two', null],
      {},
      { command: 42, file_path: ['x'], old_string: null, new_string: {}, edits: 'nope', content: 7, questions: [[]], plan: 5, url: {} },
      { command: 'x'.repeat(3_000_000), file_path: '\u0000'.repeat(10_000), content: '\n'.repeat(500_000), old_string: 'a\n'.repeat(100_000), new_string: 'b\n'.repeat(100_000) },
      { edits: Array.from({ length: 1000 }, () => ({ old_string: 'a\nb\nc', new_string: 'a\nB\nc' })), file_path: '/f' },
      { questions: Array.from({ length: 1000 }, () => ({ question: '\u202e?'.repeat(5000), header: 'h'.repeat(5000), options: Array.from({ length: 100 }, () => ({ label: 'l\u0007'.repeat(1000), description: 'd'.repeat(5000) })) })) },
      { __proto__: { command: 'inherited' } },
      Object.create(null),
    ];
    const tools: unknown[] = ['Bash', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'WebFetch', 'WebSearch', 'Read', 'Grep', 'Glob', 'AskUserQuestion', 'ExitPlanMode', 'mcp__s__t', 'mcp__', 'constructor', '__proto__', 'toString', '', 42, null, undefined, '\u001b[31mRed'];
    const suggestions: unknown[] = [undefined, null, 'x', [null], [{ type: 'addRules', rules: [{ toolName: 'T'.repeat(10_000), ruleContent: '\u0000'.repeat(10_000) }], behavior: {}, destination: [] }]];
    for (const tool of tools) {
      for (const [i, input] of junk.entries()) {
        const d = describeRequest(request(tool, input, { permission_suggestions: suggestions[i % suggestions.length], cwd: i % 2 === 0 ? 7 : '/' }));
        expectSafe(d);
        expect(d.tool.length).toBeGreaterThan(0);
      }
    }
    for (const payload of [null, undefined, 42, 'str', [], {}]) {
      const d = describeRequest(payload as unknown as PermissionRequestPayload);
      expect(d.kind).toBe('permission');
      expect(d.tool).toBe('Unknown tool');
      expectSafe(d);
    }
  });

  it('keeps a card even when reading the input throws', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    const d = describeRequest(request('Bash', hostile));
    expect(d).toEqual({
      kind: 'permission',
      tool: 'Bash',
      summary: { title: 'Bash', description: null, body: null, diff: null, path: null },
      questions: [],
      questionKeys: [],
      alwaysAllow: null,
    });
  });
});

describe("Codex's apply_patch", () => {
  const captured = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-0.169.0', 'permission-request-patch.json'), 'utf8')) as { tool_name: string; tool_input: unknown };

  it('shows the patch Codex asked to apply, as captured: each file named, with its lines and the counts', () => {
    const { summary } = describeRequest(request(captured.tool_name, captured.tool_input));
    expect(summary).toEqual({
      title: 'Patch: Edit 2 files: a.txt, b.txt',
      description: '+2 −1',
      body: null,
      diff: ['… a.txt', ' one', '-two', '+three', '… b.txt (new)', '+new'],
      path: null,
    });
  });

  it('names one file by its change, a move by both paths, and sets a second hunk apart', () => {
    const patch = '*** Begin Patch\n*** Update File: /home/user/proj/src/a.ts\n*** Move to: /home/user/proj/src/b.ts\n@@ one\n-x\n+y\n@@ two\n-p\n+q\n*** End of File\n*** End Patch';
    expect(describeRequest(request('apply_patch', { command: patch })).summary).toEqual({
      title: 'Patch: Edit src/a.ts → src/b.ts',
      description: '+2 −2',
      body: null,
      diff: ['-x', '+y', '…', '-p', '+q'],
      path: '/home/user/proj/src/a.ts',
    });
    expect(describeRequest(request('apply_patch', { command: '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch' })).summary.title).toBe('Patch: Delete old.txt');
  });

  it('falls back to the input as it is for text that is not a patch, escaped as any card text', () => {
    for (const command of ['rm -rf /', '*** Begin Patch\n*** Update File: a\nnot a patch line\n*** End Patch', '*** Begin Patch\n*** Add File: a\n+x', '*** Begin Patch\n*** End Patch']) {
      const { summary } = describeRequest(request('apply_patch', { command }));
      expect(summary.diff).toBeNull();
      expect(summary.body).toBe(compactJson({ command }));
    }
    const hostile = describeRequest(request('apply_patch', { command: '*** Begin Patch\n*** Add File: a\u202e.txt\n+\u001b[31mred\n*** End Patch' })).summary;
    expect(hostile.title).not.toMatch(/[\u202e\u001b]/);
    expect(strings(hostile.diff).join('')).not.toMatch(/[\u202e\u001b]/);
  });
});
