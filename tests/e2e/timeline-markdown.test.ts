/**
 * A hostile answer in a conversation, in real Chromium against a real agent: Claude's
 * transcript holds, between ordinary answers, one that nests blockquotes 10,000 deep (10 KB
 * of `>`, within what the timeline carries of an answer; the app's own bundle of marked went
 * some thousands deep before its stack overflowed, and the whole timeline stayed on "Reading
 * the conversation…"). Every answer renders, the hostile one with its nesting cut at the
 * bound and the rest of its markers as text. Made without Claude: a session outside
 * pocketmux, reported by the agent's own hook script, whose transcript is the captured one
 * with two answers added.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, PHONE, pairBrowser, useAgentAndBrowser } from '../support/browser.js';
import { type OutsideFixture, outsideFixture, outsidePayload, runHookScript } from '../support/hook-script.js';

const fixture = useAgentAndBrowser();

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');
const HOSTILE = `${'>'.repeat(10_000)} the deepest line`;
const AFTER = 'After the quote, all is well.';

let who: OutsideFixture;

/** An assistant text line as Claude writes it, from the captured transcript, saying `text`. */
function answerLine(template: Record<string, unknown>, n: number, text: string): string {
  const message = template.message as Record<string, unknown>;
  return JSON.stringify({
    ...template,
    uuid: `00000000-0000-4000-8000-00000000000${n}`,
    message: { ...message, id: `msg_hostile_${n}`, content: [{ type: 'text', text }] },
  });
}

beforeAll(async () => {
  who = outsideFixture(fixture.agent.home, 'notes');
  const assistant = readFileSync(join(FIXTURES, 'transcript.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"type":"assistant"') && l.includes('"type":"text"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
  if (!assistant) throw new Error('no assistant text in the captured transcript');
  appendFileSync(who.transcript, `${answerLine(assistant, 1, HOSTILE)}\n${answerLine(assistant, 2, AFTER)}\n`);
  for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop']) {
    const run = await runHookScript(fixture.agent.dataDir, `--global ${event}`, outsidePayload(who, event), {});
    expect(run).toMatchObject({ code: 0, stderr: '' });
  }
}, 60_000);

describe('the timeline with a hostile answer among ordinary ones', () => {
  it('renders every answer: the hostile one nested 8 deep at most, the rest of its markers as text', async () => {
    const context = await fixture.browser.newContext(PHONE);
    await pairBrowser(context, fixture.agent, 'Pixel 8');
    const page = await context.newPage();
    await page.goto(new URL(`/t/${who.key}/timeline`, fixture.agent.url).href);
    const timeline = page.locator('pm-timeline-view');
    // The captured conversation before it, and the answer after it.
    await timeline.getByText('please run it').first().waitFor({ timeout: 20_000 });
    await timeline.getByText(AFTER).waitFor({ timeout: 20_000 });
    await timeline.getByText('the deepest line', { exact: false }).waitFor();
    expect(await timeline.getByText('Reading the conversation…').count()).toBe(0);
    const deepest = await timeline.evaluate((view) => {
      let most = 0;
      for (const quote of Array.from(view.shadowRoot?.querySelectorAll('blockquote') ?? [])) {
        let depth = 0;
        for (let at: Element | null = quote; at; at = at.parentElement) if (at.tagName === 'BLOCKQUOTE') depth++;
        most = Math.max(most, depth);
      }
      return most;
    });
    expect(deepest).toBe(8);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-timeline-hostile-markdown-phone.png') });
    await context.close();
  }, 60_000);
});
