/**
 * The phone conversation in real Chromium, against a real agent running the real Claude Code
 * CLI in a Claude tab (against the stand-in API): a prompt written in the timeline's composer
 * reaches Claude and its Markdown answer shows; Stop interrupts a turn; a prompt written while
 * Claude works waits and goes when the turn ends; `/` offers Claude's commands, and a project's
 * own command reaches the CLI, which expands it; an attached image lands in the tab's directory
 * and its `@path` in the prompt.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import type { AgentHandle } from '../support/agent.js';
import { ARTIFACTS, DESKTOP, pairBrowser } from '../support/browser.js';
import { startClaudePage, stopClaudePage } from '../support/claude-page.js';
import { ClaudeTabPane } from '../support/claude-pane.js';
import { MARKDOWN_ANSWER } from '../support/claude-turns.js';
import { api, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { type FakeAnthropic, type RecordedRequest, slow, text, toolUse } from '../support/fake-anthropic.js';
import { StatusClient } from '../support/status.js';

let fake: FakeAnthropic;
let agent: AgentHandle;
let browser: Browser;
let desktop: BrowserContext;
let page: Page;
let wide: Page;
let session: Session;
let project: string;
let tab: TabView;
let pane: ClaudeTabPane;
let status: StatusClient;

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A project command, and words of its body that only reach the API if the CLI expanded it. */
const COMMAND = 'lighthouse-notes';
const COMMAND_BODY_MARK = 'in the voice of a lighthouse keeper, signed QX-4417';


function composer(p: Page): Locator {
  return p.locator('pm-composer');
}

function field(p: Page): Locator {
  return composer(p).getByRole('textbox', { name: 'Prompt for Claude' });
}

function timeline(p: Page): Locator {
  return p.locator('pm-timeline-view');
}

async function openTimeline(p: Page): Promise<void> {
  await p.goto(new URL(`/t/${tab.id}/timeline`, agent.url).toString());
  await field(p).waitFor({ timeout: 20_000 });
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(p: Page): Promise<void> {
  expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/**
 * Whether any request to the stand-in carried `text` in its last user message. The CLI may put
 * a message of its own after it (the environment, at the start of a session).
 */
function sawInLastMessage(r: RecordedRequest, needle: string): boolean {
  const lastUser = [...(r.body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  return !r.sideCall && JSON.stringify(lastUser ?? '').includes(needle);
}

async function expectTappable(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('not laid out');
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
}

beforeAll(async () => {
  ({ fake, agent, browser, page, session, project } = await startClaudePage());
  // Claude Code reads a project's commands when it starts, so the file is there before the tab.
  mkdirSync(join(project, '.claude', 'commands'), { recursive: true });
  writeFileSync(
    join(project, '.claude', 'commands', `${COMMAND}.md`),
    `---\ndescription: Release notes from the lighthouse\n---\nWrite the release notes ${COMMAND_BODY_MARK}.\n`,
  );
  writeFileSync(join(project, 'CHANGES.txt'), 'Fixed the lamp.\n');
  // The desktop in the dark theme, the phone in the light one: both are drawn from the theme's colours.
  desktop = await browser.newContext({ ...DESKTOP, colorScheme: 'dark', permissions: ['clipboard-read', 'clipboard-write'] });
  await pairBrowser(desktop, agent, 'Desktop');
  wide = await desktop.newPage();
  const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project, name: 'project' });
  const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
  tab = created.body;
  pane = new ClaudeTabPane(agent, tab);
  status = new StatusClient(session);
  await status.opened;
  await status.waitState(tab.id, 'idle', (s) => s.claudeRunning);
  await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 30_000);
}, 90_000);

afterAll(async () => {
  status?.ws.close();
  await stopClaudePage({ browser, fake });
});

describe('the composer under the timeline, with the real Claude Code CLI', () => {
  it("sends a prompt written on the phone, and Claude's Markdown answer shows in the timeline", async () => {
    fake.onPrompt('show me the plan', text(MARKDOWN_ANSWER));
    await openTimeline(page);
    const send = composer(page).getByRole('button', { name: 'Send' });
    await expectTappable(send);
    await expectTappable(composer(page).getByRole('button', { name: 'Attach a file or image' }));
    await expectTappable(composer(page).getByRole('button', { name: 'Sent from this device' }));
    // On a phone Enter writes a new line; the button sends.
    await field(page).fill('show me the plan');
    await field(page).press('Enter');
    await field(page).pressSequentially('in two lines');
    expect(await field(page).inputValue()).toBe('show me the plan\nin two lines');
    expect(fake.mainRequests().some((r) => r.prompt?.includes('show me the plan'))).toBe(false);
    await send.tap();
    const request = await fake.waitForRequest((r) => !r.sideCall && r.prompt?.includes('show me the plan') === true, 30_000);
    expect(request.prompt).toBe('show me the plan\nin two lines');
    await eventually(async () => (await field(page).inputValue()) === '', 10_000, 'the field to empty');

    // The answer, as Markdown: the list and the code render; the script is text, never run.
    const answer = timeline(page).locator('.md').filter({ hasText: 'Here is the plan:' });
    await answer.waitFor({ timeout: 30_000 });
    await answer.locator('li').filter({ hasText: 'rename the button' }).locator('strong').waitFor();
    expect(await answer.locator('li').count()).toBe(2);
    expect(await answer.locator('.code pre code').textContent()).toBe('const colour = "blue";\n');
    await expectTappable(answer.getByRole('button', { name: 'Copy code' }));
    expect(await answer.textContent()).toContain('<script>window.__pwned = true</script>');
    expect(await timeline(page).locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    // The prompt shows as written, lines kept.
    await timeline(page).locator('.prompt').filter({ hasText: 'in two lines' }).waitFor();
    await status.waitState(tab.id, 'ready-for-review');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-composer-timeline-phone.png') });

    // What was sent from this phone comes back from the history button.
    await composer(page).getByRole('button', { name: 'Sent from this device' }).tap();
    const history = composer(page).getByRole('region', { name: 'Sent from this device' });
    await history.getByRole('button', { name: /show me the plan/ }).tap();
    expect(await field(page).inputValue()).toBe('show me the plan\nin two lines');
    await field(page).fill('');
  }, 120_000);

  it('offers the slash commands when the prompt starts with /, filtered as typed', async () => {
    await openTimeline(page);
    await field(page).fill('');
    await field(page).pressSequentially('/');
    const menu = composer(page).getByRole('listbox', { name: 'Slash commands' });
    await menu.waitFor({ timeout: 15_000 });
    const compact = menu.getByRole('option', { name: /\/compact/ });
    await compact.waitFor();
    expect(await compact.textContent()).toContain('built-in');
    const all = await menu.getByRole('option').count();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-composer-slash-phone.png') });
    await field(page).pressSequentially('comp');
    await eventually(async () => (await menu.getByRole('option').count()) < all, 5_000, 'the list to narrow');
    await expectTappable(compact);
    await compact.tap();
    expect(await field(page).inputValue()).toBe('/compact ');
    await menu.waitFor({ state: 'detached' });
    await field(page).fill('');

    // On a desktop: the keys choose, Enter takes the one chosen.
    await openTimeline(wide);
    await field(wide).click();
    await field(wide).pressSequentially('/comp');
    const wideMenu = composer(wide).getByRole('listbox', { name: 'Slash commands' });
    await wideMenu.getByRole('option', { name: /\/compact/ }).waitFor({ timeout: 15_000 });
    expect(await wideMenu.getByRole('option', { selected: true }).textContent()).toContain('/compact');
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-composer-slash-desktop.png') });
    await field(wide).press('Enter');
    expect(await field(wide).inputValue()).toBe('/compact ');
    await field(wide).fill('');
    // Nothing was sent.
    expect(fake.mainRequests().some((r) => r.prompt?.startsWith('/comp'))).toBe(false);
  }, 120_000);

  it("sends a project's own command: the CLI expands it, and the tokens Claude writes show while it works", async () => {
    // The command's turn reads a file (no permission asked), then streams an answer held back
    // until the test has looked at the line above the composer.
    const reply = slow('Notes from the lighthouse:\n', '- Fixed the lamp.');
    fake.enqueue(toolUse('Read', { file_path: join(project, 'CHANGES.txt') }, { preamble: 'Reading the changes.' }), reply);
    await openTimeline(page);
    await field(page).fill('');
    await field(page).pressSequentially('/lig');
    const menu = composer(page).getByRole('listbox', { name: 'Slash commands' });
    const option = menu.getByRole('option', { name: new RegExp(`/${COMMAND}`) });
    await option.waitFor({ timeout: 15_000 });
    expect(await option.textContent()).toContain('Release notes from the lighthouse');
    expect(await option.textContent()).toContain('project');
    await option.tap();
    expect(await field(page).inputValue()).toBe(`/${COMMAND} `);
    await composer(page).getByRole('button', { name: 'Send' }).tap();

    // The CLI sent the command's body, not its name, to the model.
    const request = await fake.waitForRequest((r) => sawInLastMessage(r, COMMAND_BODY_MARK), 30_000).catch(async (e) => {
      throw new Error(`${e}\n${await pane.screen()}`);
    });
    expect(request.hasToolResult).toBe(false);
    // The timeline shows the command as typed, not the wrapper Claude Code logs it in.
    await timeline(page).locator('.prompt').filter({ hasText: `/${COMMAND}` }).waitFor({ timeout: 15_000 });
    expect(await timeline(page).locator('.prompt').filter({ hasText: '<command-' }).count()).toBe(0);

    // While the answer streams, the line counts the tokens of the turn's finished message.
    await reply.started;
    await status.waitState(tab.id, 'busy');
    const doing = composer(page).getByRole('group', { name: /^Claude is working: / });
    const tokens = await eventually(
      async () => /· (\d+) tokens\b/.exec((await doing.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '')?.[1] ?? null,
      15_000,
      'a token count in the line above the composer',
    );
    expect(Number(tokens)).toBeGreaterThanOrEqual(20);
    const meta = doing.locator('.meta');
    expect(await meta.textContent()).toMatch(/↓ \d+ tokens/);
    // On a phone the line stays whole: nothing in it is cut off.
    expect(await meta.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-composer-tokens-phone.png') });

    reply.release();
    await timeline(page).locator('.md').filter({ hasText: 'Fixed the lamp.' }).waitFor({ timeout: 30_000 });
    await status.waitState(tab.id, 'ready-for-review');
    await doing.waitFor({ state: 'detached' });
  }, 120_000);

  it('shows what Claude is doing while it works; Stop interrupts the turn, and a queued prompt goes back to the field', async () => {
    const reply = slow('Let me write a very long answer.\n', 'It goes on and on.');
    fake.onPrompt('write at length', reply, { times: 1 });
    await openTimeline(page);
    await field(page).fill('write at length');
    await composer(page).getByRole('button', { name: 'Send' }).tap();
    await reply.started;
    await status.waitState(tab.id, 'busy');
    const stop = composer(page).getByRole('button', { name: 'Stop Claude' });
    await stop.waitFor({ timeout: 15_000 });
    await expectTappable(stop);
    const doing = composer(page).getByRole('group', { name: /^Claude is working: / });
    expect(await doing.getAttribute('aria-label')).toMatch(/Working · \d+s/);

    // Written while Claude works: queued, not sent.
    await field(page).fill('hold this one');
    await composer(page).getByRole('button', { name: 'Queue' }).tap();
    const queued = composer(page).locator('.line.queued');
    await queued.getByText('hold this one').waitFor();
    expect(await queued.textContent()).toMatch(/Queued:\s*hold this one/);
    expect(await field(page).inputValue()).toBe('');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-composer-queued-phone.png') });

    await stop.tap();
    await reply.aborted;
    await timeline(page).getByRole('note').filter({ hasText: /Interrupted by you|Tool call stopped by you/ }).waitFor({ timeout: 30_000 });
    await status.waitState(tab.id, 'idle', () => true, 30_000);
    await stop.waitFor({ state: 'detached', timeout: 10_000 });
    await doing.waitFor({ state: 'detached' });
    // An interrupted turn sends nothing by itself, as in the terminal: the prompt waits in the field.
    await queued.waitFor({ state: 'detached' });
    expect(await field(page).inputValue()).toBe('hold this one');
    // A prompt sent now goes the way the queued one would have (the page, the agent, the pane,
    // Claude): once it reached the API, one sent before it would have too.
    fake.onPrompt('after the interrupt', text('Noted.'), { times: 1 });
    await field(page).fill('after the interrupt');
    await composer(page).getByRole('button', { name: 'Send' }).tap();
    const marker = await eventually(() => fake.mainRequests().find((r) => sawInLastMessage(r, 'after the interrupt')), 30_000, 'the prompt sent after the interrupt');
    expect(marker.prompt).toBe('after the interrupt');
    expect(fake.mainRequests().some((r) => r.prompt === 'hold this one')).toBe(false);
    await timeline(page).locator('.md').filter({ hasText: 'Noted.' }).waitFor({ timeout: 30_000 });
    await status.waitState(tab.id, 'ready-for-review');
    await field(page).fill('');
  }, 120_000);

  it('sends a prompt queued while Claude works once the turn ends (desktop: Enter sends, ↑ recalls)', async () => {
    const reply = slow('Thinking it through.\n', 'Done thinking.');
    fake.onPrompt('take your time', reply, { times: 1 });
    fake.onPrompt('after the turn', text('Now the next thing.'));
    await openTimeline(wide);
    await field(wide).click();
    await field(wide).pressSequentially('take your time');
    await field(wide).press('Enter');
    await reply.started;
    await status.waitState(tab.id, 'busy');
    await composer(wide).getByRole('button', { name: 'Stop Claude' }).waitFor({ timeout: 15_000 });
    await timeline(wide).locator('.prompt').filter({ hasText: 'take your time' }).waitFor({ timeout: 15_000 });

    // One waits; a second is refused and stays in the field; a cancelled one comes back to it.
    await field(wide).pressSequentially('cancel me');
    await field(wide).press('Enter');
    const queued = composer(wide).locator('.line.queued');
    await queued.getByText('cancel me').waitFor();
    await composer(wide).getByRole('button', { name: 'Cancel the queued prompt' }).click();
    await queued.waitFor({ state: 'detached' });
    expect(await field(wide).inputValue()).toBe('cancel me');
    await field(wide).fill('after the turn');
    await field(wide).press('Enter');
    await queued.getByText('after the turn').waitFor();
    await field(wide).pressSequentially('one more');
    await field(wide).press('Enter');
    await composer(wide).getByRole('alert').filter({ hasText: 'A prompt is queued already' }).waitFor();
    expect(await field(wide).inputValue()).toBe('one more');
    await field(wide).fill('');
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-composer-queued-desktop.png') });
    expect(fake.mainRequests().some((r) => r.prompt === 'after the turn')).toBe(false);

    reply.release();
    await fake.waitForRequest((r) => !r.sideCall && r.prompt === 'after the turn', 30_000);
    await queued.waitFor({ state: 'detached' });
    await timeline(wide).locator('.md').filter({ hasText: 'Now the next thing.' }).waitFor({ timeout: 30_000 });
    await status.waitState(tab.id, 'ready-for-review', (s) => s.lastMessage === 'Now the next thing.');
    await expectNoSidewaysScroll(wide);
    await wide.screenshot({ path: join(ARTIFACTS, 'e2e-composer-timeline-desktop.png') });

    // A code block's button copies its code.
    const copy = timeline(wide).getByRole('button', { name: 'Copy code' });
    await copy.click();
    await timeline(wide).getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await wide.evaluate(() => navigator.clipboard.readText())).toBe('const colour = "blue";\n');

    // ↑ at the start of the field brings back what this desktop sent, newest first; ↓ goes back.
    await field(wide).click();
    await field(wide).press('ArrowUp');
    expect(await field(wide).inputValue()).toBe('after the turn');
    await field(wide).press('ArrowUp');
    expect(await field(wide).inputValue()).toBe('take your time');
    await field(wide).press('End');
    await field(wide).press('ArrowDown');
    expect(await field(wide).inputValue()).toBe('after the turn');
    await field(wide).fill('');
  }, 120_000);

  it('says why nothing can be typed into a shell tab where Claude does not run', async () => {
    const shell = (await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: tab.workspaceId })).body;
    await page.goto(new URL(`/t/${shell.id}/timeline`, agent.url).toString());
    await composer(page).getByRole('note').filter({ hasText: 'Claude is not running in this tab: it is a shell' }).waitFor({ timeout: 20_000 });
    expect(await field(page).count()).toBe(0);
    expect(await composer(page).getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await api(session, 'DELETE', `/api/tabs/${shell.id}`);
  }, 60_000);

  it('attaches an image: it is saved in the tab directory and its @path goes into the prompt', async () => {
    fake.onPrompt('what is in', text('A single pixel.'));
    await openTimeline(page);
    await field(page).fill('what is in');
    const picker = composer(page).locator('input[type=file]');
    await picker.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
    const withPath = (re: RegExp) =>
      eventually(
        async () => {
          const v = await field(page).inputValue();
          return re.exec(v)?.[1] ?? null;
        },
        20_000,
        'the path in the prompt',
      );
    const path = await withPath(/@(\.pocketmux\/uploads\/\S+)/);
    expect(await field(page).inputValue()).toBe(`what is in @${path} `);
    expect(existsSync(join(project, path))).toBe(true);
    await composer(page).getByRole('status').filter({ hasText: /Attached pixel\.png/ }).first().waitFor();
    // A name with a space keeps it, so its mention is quoted: Claude Code reads `@"…"` whole.
    await field(page).press('End');
    await field(page).pressSequentially('and');
    await picker.setInputFiles({ name: 'screen shot.png', mimeType: 'image/png', buffer: PNG });
    const spaced = await withPath(/@"(\.pocketmux\/uploads\/[^"]*screen shot[^"]*)"/);
    expect(existsSync(join(project, spaced))).toBe(true);
    await expectNoSidewaysScroll(page);
    await composer(page).getByRole('button', { name: 'Send' }).tap();
    await fake.waitForRequest((r) => sawInLastMessage(r, path) && sawInLastMessage(r, spaced), 30_000).catch(async (e) => {
      throw new Error(`${e}\n${await pane.screen()}`);
    });
    await timeline(page).locator('.md').filter({ hasText: 'A single pixel.' }).waitFor({ timeout: 30_000 });

    // Too large: refused before anything is sent.
    const uploads = join(project, '.pocketmux', 'uploads');
    const before = readdirSync(uploads).length;
    await picker.setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(UPLOAD_MAX_BYTES + 1024 * 1024) });
    await composer(page).getByRole('alert').filter({ hasText: 'huge.bin (11 MB) is too large: files up to 10 MB can be attached.' }).waitFor();
    expect(readdirSync(uploads)).toHaveLength(before);
    await field(page).fill('');

    // On a desktop, an image pasted into the field is attached the same way.
    await openTimeline(wide);
    await field(wide).click();
    await field(wide).evaluate(async (el, bytes) => {
      const file = new File([new Uint8Array(bytes)], '', { type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(file);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
    }, [...PNG]);
    const pasted = await eventually(
      async () => /^@(\.pocketmux\/uploads\/\S*pasted\.png) $/.exec(await field(wide).inputValue())?.[1] ?? null,
      20_000,
      'the pasted image in the prompt',
    );
    expect(existsSync(join(project, pasted))).toBe(true);
    await field(wide).fill('');
  }, 120_000);
});
