/**
 * Review on the phone, in real Chromium, against a real agent running the real Claude Code CLI
 * (against the stand-in API) in a git repository: after a turn that edits, writes and removes
 * files, a Claude tab's Changes view lists them with their counts; a file opens on its diff,
 * numbered on both sides with the changed word marked; the next file is a button (or a key)
 * away; the scopes switch; and a desktop window shows the same.
 * Screenshots: test-artifacts/e2e-changes-<what>-<size>.png.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { AgentHandle } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, pairBrowser } from '../support/browser.js';
import { startClaudePage, stopClaudePage } from '../support/claude-page.js';
import { api, type Session } from '../support/client.js';
import { bash, type FakeAnthropic, text, toolUse } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';
import { git } from '../support/git.js';

const SETTINGS = `${JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash', 'Edit', 'Write', 'Read'] } }, null, 2)}\n`;

const APP = ['import { serve } from "./server";', '', 'const port = 8080;', 'const retries = 3;', 'serve({ port, retries });', ''].join('\n');

let fake: FakeAnthropic;
let agent: AgentHandle;
let browser: Browser;
let page: Page;
let session: Session;
let project: string;
let tab: TabView;
let plain: string;

beforeAll(async () => {
  let folders: Record<string, string>;
  ({ fake, agent, browser, page, session, project, folders } = await startClaudePage({ folders: ['plain'] }));
  plain = folders.plain as string;
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(join(project, 'src', 'server'), { recursive: true });
  writeFileSync(join(project, '.claude', 'settings.json'), SETTINGS);
  writeFileSync(join(project, 'src', 'app.ts'), APP);
  writeFileSync(join(project, 'src', 'server', 'old-routes.ts'), 'export const routes = [];\n');
  writeFileSync(join(project, 'README.md'), '# Service\n\nRuns on port 8080.\n');
  // Who commits from the phone: the person's own git identity, as the agent's git reads it.
  writeFileSync(join(dirname(project), '.gitconfig'), '[user]\n\tname = Pocket Person\n\temail = person@example.com\n');
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'start');

  const workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'service' })).body;
  tab = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude', claude: { permissionMode: 'acceptEdits' } })).body;
  const status = new StatusClient(session);
  await status.opened;
  await status.waitState(tab.id, 'idle', (s) => s.claudeRunning, 60_000);
  const app = join(project, 'src', 'app.ts');
  fake.enqueue(
    toolUse('Read', { file_path: app }),
    toolUse('Edit', { file_path: app, old_string: 'const port = 8080;', new_string: 'const port = Number(process.env.PORT ?? 8080);' }),
    toolUse('Write', { file_path: join(project, 'src', 'health.ts'), content: 'export function health() {\n  return { ok: true };\n}\n' }),
    bash(`git -C ${project} mv src/server/old-routes.ts src/server/routes.ts && sed -i 's/8080/$PORT/' ${join(project, 'README.md')}`, 'Rename and document'),
    text('Done: the port comes from the environment.'),
  );
  const seq = status.latest(tab.id)?.seq ?? 0;
  await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'read the port from the environment' });
  await status.waitState(tab.id, 'ready-for-review', (s) => s.seq > seq + 1, 60_000);
  status.ws.close();
  expect(readFileSync(app, 'utf8')).toContain('process.env.PORT');
}, 150_000);

afterAll(async () => {
  await stopClaudePage({ browser, fake });
});

function shot(p: Page, name: string): Promise<Buffer> {
  return p.screenshot({ path: join(ARTIFACTS, `e2e-changes-${name}.png`) });
}

async function reviewFiles(p: Page): Promise<void> {
  const view = p.locator('pm-changes-view');
  const files = view.getByRole('list', { name: 'Changed files' });
  await files.getByRole('button').first().waitFor();
  expect(await files.getByRole('button').allInnerTexts()).toEqual([
    expect.stringMatching(/^M\s+README\.md\s+\+1 \u22121/),
    expect.stringMatching(/^M\s+app\.ts\s+src\/\s+\+1 \u22121/),
    expect.stringMatching(/^A\s+health\.ts\s+src\/\s+\+3 \u22120/),
    expect.stringMatching(/^R\s+routes\.ts\s+src\/server\/\s+from src\/server\/old-routes\.ts\s+\+0 \u22120/),
  ]);
  await expect(view.locator('.summary .total').textContent()).resolves.toBe('4 files changed, +5 \u22122');
}

describe('the Changes view', () => {
  it('on a phone: the review card says what changed and opens the turn\u2019s files, a file\u2019s diff with the changed words marked, the next file, the scopes', async () => {
    await page.goto(agent.url);
    const card = page.locator('pm-review-card');
    const summary = card.getByRole('button', { name: /^4 files changed, \+5 \u22122\W*review them$/ });
    await summary.waitFor();
    await shot(page, 'card-phone');
    await summary.tap();
    await page.waitForURL(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    await reviewFiles(page);
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Changes' }).waitFor();
    expect(await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Changes' }).getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'list-phone');

    await view.getByRole('button', { name: /app\.ts/ }).tap();
    const diff = view.getByRole('table', { name: 'Diff' });
    await diff.waitFor();
    // Each row: its kind, its old and new numbers, and its + or - with its text.
    const rows = await diff.locator('tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const [old, now, op, code] = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
        return [tr.className, old, now, `${op}${code}`];
      }),
    );
    expect(rows).toEqual([
      ['ctx', '1', '1', ' import { serve } from "./server";'],
      ['ctx', '2', '2', ' '],
      ['del', '3', '', '-const port = 8080;'],
      ['add', '', '3', '+const port = Number(process.env.PORT ?? 8080);'],
      ['ctx', '4', '4', ' const retries = 3;'],
      ['ctx', '5', '5', ' serve({ port, retries });'],
    ]);
    // The port is kept: only what was put around it is marked, and nothing of the old line.
    expect(await diff.locator('tr.add mark').allInnerTexts()).toEqual(['Number(process.env.PORT ?? ', ')']);
    expect(await diff.locator('tr.del mark').count()).toBe(0);
    // Nothing wider than the phone: wrapped lines stay on the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'diff-phone');

    await view.getByRole('button', { name: 'Next file' }).tap();
    await expect(view.locator('.file-name').evaluate((el) => el.textContent?.replace(/\s+/g, ' ').trim())).resolves.toBe('health.ts src/');
    await view.locator('tr.add').first().waitFor();
    expect(await view.locator('tr.add td.code').allInnerTexts()).toEqual(['export function health() {', '  return { ok: true };', '}']);
    await view.getByRole('button', { name: 'Next file' }).tap();
    await view.getByText('renamed \u00b7 from src/server/old-routes.ts').waitFor();
    expect(await view.getByRole('button', { name: 'Next file' }).isDisabled()).toBe(true);
    await view.getByRole('button', { name: 'All changed files' }).tap();

    // HEAD: the same files (nothing was committed); the rename is one the index knows.
    await view.getByRole('button', { name: 'HEAD' }).tap();
    await expect(view.locator('.summary').evaluate((el) => el.textContent?.replace(/\s+/g, ' ').trim())).resolves.toMatch(/^4 files changed, \+5 \u22122 against [0-9a-f]{8}$/);
  });

  it('on a desktop: the same review, and the keys move between files', async () => {
    const desktop = await browser.newContext(DESKTOP);
    try {
      await pairBrowser(desktop, agent, 'Laptop');
      const p = await desktop.newPage();
      await p.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
      await reviewFiles(p);
      const view = p.locator('pm-changes-view');
      await view.getByRole('button', { name: /README\.md/ }).click();
      // Wide enough: the old side beside the new, the changed line beside its replacement.
      const side = view.locator('table.diff.side');
      await side.locator('td.code.add').first().waitFor();
      const row = side.locator('tr').filter({ has: p.locator('td.code.add') });
      expect(await row.locator('td').allInnerTexts()).toEqual(['3', 'Runs on port 8080.', '3', 'Runs on port $PORT.']);
      expect(await side.locator('td.code.ctx').allInnerTexts()).toEqual(['# Service', '# Service', '', '']);
      await shot(p, 'diff-desktop');
      await view.getByRole('button', { name: 'Side by side' }).click();
      await view.locator('tr.add').first().waitFor();
      expect(await view.locator('tr.add td.code').allInnerTexts()).toEqual(['Runs on port $PORT.']);
      await view.getByRole('button', { name: 'Side by side' }).click();
      await side.waitFor();
      await view.locator('.diff-scroller').press('ArrowRight');
      await expect(view.locator('.file-name').evaluate((el) => el.textContent?.replace(/\s+/g, ' ').trim())).resolves.toBe('app.ts src/');
      await view.locator('.diff-scroller').press('Escape');
      await view.getByRole('list', { name: 'Changed files' }).waitFor();
      await shot(p, 'list-desktop');
    } finally {
      await desktop.close();
    }
  });

  it('reverts a file of the turn after asking, and Undo puts it back', async () => {
    await page.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    const files = view.getByRole('list', { name: 'Changed files' });
    await view.getByRole('button', { name: /README\.md/ }).tap();
    await view.locator('tr.add').first().waitFor();
    await view.getByRole('button', { name: 'Revert' }).tap();
    const confirm = view.locator('pm-confirm-bar');
    await confirm.getByRole('button', { name: 'Revert' }).waitFor();
    await shot(page, 'revert-phone');
    await confirm.getByRole('button', { name: 'Revert' }).tap();
    await view.getByRole('region', { name: 'Reverted' }).waitFor();
    await expect.poll(() => files.getByRole('button').count(), { timeout: 15_000 }).toBe(3);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# Service\n\nRuns on port 8080.\n');
    await view.getByRole('region', { name: 'Reverted' }).getByRole('button', { name: 'Undo' }).tap();
    await expect.poll(() => files.getByRole('button').count(), { timeout: 15_000 }).toBe(4);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# Service\n\nRuns on port $PORT.\n');
  });

  it('shows a changed file whole, numbered and coloured, and asks about its lines too', async () => {
    await page.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    await view.getByRole('button', { name: /health\.ts/ }).tap();
    await view.locator('tr.add').first().waitFor();
    await view.getByRole('button', { name: 'File', exact: true }).tap();
    const file = view.getByRole('table', { name: 'File' });
    await file.waitFor();
    expect(await file.locator('td.code').allInnerTexts()).toEqual(['export function health() {', '  return { ok: true };', '}']);
    expect(await file.locator('.kw').allInnerTexts()).toEqual(['export', 'function', 'return', 'true']);
    await file.locator('td.num').nth(3).tap();
    await view.getByRole('region', { name: 'Picked lines' }).waitFor();
    await expect(view.locator('.ask .picked').textContent()).resolves.toBe('src/health.ts:2');
    await shot(page, 'file-phone');
    await view.getByRole('button', { name: 'Unpick the lines' }).tap();
  });

  it('leads from a tool call in the timeline to the file it wrote', async () => {
    await page.goto(new URL(`/t/${tab.id}/timeline`, agent.url).href);
    const edit = page.locator('pm-timeline-view details.tool').filter({ hasText: 'Edit' }).first();
    await edit.locator('summary').tap();
    await edit.getByRole('link', { name: 'Review the file' }).tap();
    await page.waitForURL((url) => url.pathname === `/t/${tab.id}/changes` && url.searchParams.get('file') === join(project, 'src', 'app.ts'));
    const view = page.locator('pm-changes-view');
    await view.getByRole('table', { name: 'Diff' }).waitFor();
    await expect(view.locator('.file-name').evaluate((el) => el.textContent?.replace(/\s+/g, ' ').trim())).resolves.toBe('app.ts src/');
  });

  it('asks Claude about picked lines: they go quoted into the prompt, and Claude gets them', async () => {
    await page.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    await view.getByRole('button', { name: /app\.ts/ }).tap();
    const diff = view.getByRole('table', { name: 'Diff' });
    await diff.locator('tr.del').waitFor();
    // The removed line's number, then the added line's: the two are picked.
    await diff.locator('tr.del td.num').first().tap();
    await diff.locator('tr.add td.num').last().tap();
    expect(await diff.locator('tr[aria-selected="true"]').count()).toBe(2);
    const picked = view.getByRole('region', { name: 'Picked lines' });
    await expect(picked.locator('.picked').textContent()).resolves.toBe('src/app.ts:3');
    await shot(page, 'picked-phone');
    await picked.getByRole('button', { name: 'Ask Claude' }).tap();
    const prompt = view.getByRole('region', { name: 'Your prompt' });
    await expect(prompt.locator('.picked').textContent()).resolves.toBe('A quote is in your prompt');
    await prompt.getByRole('button', { name: 'Write the prompt' }).tap();

    await page.waitForURL(new URL(`/t/${tab.id}/timeline`, agent.url).href);
    const field = page.locator('pm-composer').getByRole('textbox', { name: 'Prompt for Claude' });
    const quote = ['src/app.ts:3', '```diff', '-const port = 8080;', '+const port = Number(process.env.PORT ?? 8080);', '```'].join('\n');
    await expect(field.inputValue()).resolves.toBe(quote);
    await field.fill(`${quote}\n\nWhy not keep 8080 as a named constant?`);
    await shot(page, 'ask-phone');
    fake.onPrompt(/named constant/, text('Good idea; I will name it.'));
    await page.locator('pm-composer').getByRole('button', { name: 'Send' }).tap();
    const request = await fake.waitForRequest((r) => JSON.stringify(r.body).includes('named constant'), 20_000);
    const sent = JSON.stringify(request.body);
    expect(sent).toContain('src/app.ts:3');
    expect(sent).toContain(JSON.stringify('+const port = Number(process.env.PORT ?? 8080);').slice(1, -1));
    expect(sent).toContain(JSON.stringify('-const port = 8080;').slice(1, -1));
  });

  it('commits the picked files from the phone with a message', async () => {
    await page.goto(new URL(`/t/${tab.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    await view.getByRole('button', { name: 'HEAD' }).tap();
    await view.getByRole('list', { name: 'Changed files' }).getByRole('button').first().waitFor();
    await view.getByRole('button', { name: 'Commit\u2026' }).tap();
    const form = view.getByRole('form', { name: 'Commit' });
    await form.getByLabel('Commit message').fill('Read the port from the environment');
    await form.getByRole('checkbox', { name: 'README.md' }).uncheck();
    await shot(page, 'commit-phone');
    await form.getByRole('button', { name: 'Commit' }).tap();
    await view.getByText(/^Committed 3 files as [0-9a-f]{8}\.$/).waitFor();
    expect(git(project, 'log', '-1', '--format=%s|%an')).toBe('Read the port from the environment|Pocket Person\n');
    expect(git(project, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['A\tsrc/health.ts', 'M\tsrc/app.ts', 'R100\tsrc/server/old-routes.ts\tsrc/server/routes.ts']);
    // What was left out is still there to commit.
    await expect.poll(() => view.getByRole('list', { name: 'Changed files' }).getByRole('button').allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringMatching(/^M\s+README\.md/)]);
  });

  it('outside git: lists Claude\u2019s own edits, saying so, every name escaped; revert, but no commit', async () => {
    mkdirSync(join(plain, '.claude'), { recursive: true });
    writeFileSync(join(plain, '.claude', 'settings.json'), SETTINGS);
    writeFileSync(join(plain, 'notes.txt'), 'first\nsecond\n');
    const workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: plain, name: 'plain' })).body;
    const other = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspace.id, kind: 'claude', claude: { permissionMode: 'acceptEdits' } })).body;
    const status = new StatusClient(session);
    await status.opened;
    await status.waitState(other.id, 'idle', (s) => s.claudeRunning, 60_000);
    // Names a terminal or a page could be fooled by: a right-to-left override, a line break, a leading dash.
    fake.enqueue(
      toolUse('Write', { file_path: join(plain, 'invoice\u202Etxt.exe'), content: 'total 12\n' }),
      toolUse('Write', { file_path: join(plain, 'two\nlines.md'), content: 'a\n' }),
      toolUse('Write', { file_path: join(plain, '-rf'), content: 'x\n' }),
      toolUse('Read', { file_path: join(plain, 'notes.txt') }),
      toolUse('Edit', { file_path: join(plain, 'notes.txt'), old_string: 'second', new_string: 'second, edited' }),
      text('Wrote four files.'),
    );
    const seq = status.latest(other.id)?.seq ?? 0;
    await api(session, 'POST', `/api/tabs/${other.id}/input`, { text: 'write the files' });
    await status.waitState(other.id, 'ready-for-review', (s) => s.seq > seq + 1, 60_000);
    status.ws.close();

    await page.goto(new URL(`/t/${other.id}/changes`, agent.url).href);
    const view = page.locator('pm-changes-view');
    const files = view.getByRole('list', { name: 'Changed files' });
    await files.getByRole('button').first().waitFor();
    expect(await files.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/^A\s+-rf\s+\+1 \u22120/),
      expect.stringMatching(/^A\s+invoice\\u202etxt\.exe\s+\+1 \u22120/),
      expect.stringMatching(/^M\s+notes\.txt\s+\+1 \u22121/),
      expect.stringMatching(/^A\s+two\\x0alines\.md\s+\+1 \u22120/),
    ]);
    // Nothing of a name reaches the page raw.
    const names = await view.evaluate((el) => [...(el.shadowRoot?.querySelectorAll('.path .base') ?? [])].map((b) => b.textContent ?? ''));
    expect(names).toHaveLength(4);
    for (const name of names) expect(name).not.toMatch(/[\u202e\n]/);
    await view.getByRole('note').getByText(/^Not a git repository: these are Claude\u2019s own edits/).waitFor();
    expect(await view.getByRole('button', { name: 'Commit\u2026' }).count()).toBe(0);
    await shot(page, 'outside-git-phone');

    await files.getByRole('button', { name: /notes\.txt/ }).tap();
    await view.locator('tr.add').first().waitFor();
    expect(await view.locator('tr.add td.code').allInnerTexts()).toEqual(['second, edited']);
    expect(await view.getByRole('button', { name: 'Revert' }).count()).toBe(1);
    await shot(page, 'outside-git-diff-phone');
    await view.getByRole('button', { name: 'All changed files' }).tap();
    await view.getByRole('button', { name: 'HEAD' }).tap();
    await view.getByText('Cannot tell what changed: not in a git repository, so there is no HEAD to compare with.').waitFor();
    // A Claude of its own starts, then runs a turn: each may take up to a minute on a busy machine.
  }, 180_000);
});
