/**
 * Claude's answers as Markdown, rendered and sanitised by the timeline's own function in real
 * Chromium (DOMPurify works on a real DOM): what an answer may hold renders, and nothing in it
 * becomes live.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/agent.js';
import { launchBrowser } from '../support/browser.js';

let browser: Browser;
let page: Page;

/** pwa/timeline/markdown.ts and what it imports (marked, DOMPurify), as one script for the page. */
async function bundle(): Promise<string> {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    root: REPO_ROOT,
    build: {
      write: false,
      minify: false,
      lib: { entry: join(REPO_ROOT, 'pwa', 'timeline', 'markdown.ts'), formats: ['iife'], name: 'pmMarkdown' },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunk = (Array.isArray(out) ? out[0] : out)?.output.find((o) => o.type === 'chunk');
  if (chunk?.type !== 'chunk') throw new Error('no bundle');
  return chunk.code;
}

/** The rendered HTML of `markdown`, placed in the page as the timeline places it. */
async function render(markdown: string): Promise<string> {
  return page.evaluate((md) => {
    const html = (window as unknown as { pmMarkdown: { renderMarkdown(t: string): string } }).pmMarkdown.renderMarkdown(md);
    const box = document.createElement('div');
    box.className = 'md';
    box.innerHTML = html;
    document.body.append(box);
    return html;
  }, markdown);
}

beforeAll(async () => {
  const [code, b] = await Promise.all([bundle(), launchBrowser()]);
  browser = b;
  page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: code });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("Claude's answers as Markdown", () => {
  it('renders lists, tables, emphasis and inline code', async () => {
    const html = await render(['Here is the plan:', '', '- **first** step', '- `npm test`', '', '| File | Lines |', '| --- | ---: |', '| a.ts | 12 |', '', '1. one', '2. two'].join('\n'));
    expect(html).toContain('<li><strong>first</strong> step</li>');
    expect(html).toContain('<li><code>npm test</code></li>');
    expect(html).toMatch(/<div class="table"><table>\s*<thead>/);
    expect(html).toMatch(/<th align="right">Lines<\/th>/);
    expect(html).toContain('<td>a.ts</td>');
    expect(html).toMatch(/<ol>\s*<li>one<\/li>/);
  });

  it('puts each code block under a bar with its language and a copy button', async () => {
    const html = await render('Run:\n\n```ts\nconst a = 1 < 2;\n```\n\n```\nplain\n```');
    const blocks = await page.evaluate((h) => {
      const box = document.createElement('div');
      box.innerHTML = h;
      return Array.from(box.querySelectorAll('.code')).map((c) => ({
        lang: c.querySelector('.code-bar .lang')?.textContent,
        button: c.querySelector('.code-bar button.copy')?.getAttribute('aria-label'),
        type: c.querySelector('button')?.getAttribute('type'),
        code: c.querySelector('pre > code')?.textContent,
        cls: c.querySelector('pre > code')?.getAttribute('class'),
      }));
    }, html);
    expect(blocks).toEqual([
      { lang: 'ts', button: 'Copy code', type: 'button', code: 'const a = 1 < 2;\n', cls: 'language-ts' },
      { lang: '', button: 'Copy code', type: 'button', code: 'plain\n', cls: null },
    ]);
  });

  it('shows raw HTML as text: a script never runs, an onerror never fires', async () => {
    await page.evaluate(() => {
      (window as unknown as { __pwned?: boolean }).__pwned = undefined;
    });
    const html = await render(
      [
        'Watch out: <script>window.__pwned = true</script>',
        '',
        '<img src="x" onerror="window.__pwned = true">',
        '',
        '<div onclick="window.__pwned = true">block</div>',
        '',
        '<svg><script>window.__pwned = true</script></svg> <iframe src="javascript:window.__pwned=true"></iframe>',
      ].join('\n'),
    );
    expect(html).not.toMatch(/<(script|img|iframe|svg|div onclick)/i);
    expect(html).toContain('&lt;script&gt;');
    // What was written is shown as written.
    expect(await page.evaluate(() => document.body.lastElementChild?.textContent)).toContain('<img src="x" onerror="window.__pwned = true">');
    // An image of the same broken src, put in by the test: once its error has fired, the error of
    // one the Markdown had let in would have fired too.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const probe = document.createElement('img');
          probe.onerror = () => {
            probe.remove();
            resolve();
          };
          probe.src = 'x';
          document.body.append(probe);
        }),
    );
    expect(await page.evaluate(() => document.querySelectorAll('.md script, .md img, .md iframe, .md [onerror], .md [onclick]').length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  });

  it('makes Markdown images links, never images the phone would fetch', async () => {
    const html = await render('![a chart](https://example.com/chart.png) ![x](x" onerror="window.__pwned=1)');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.com/chart.png" target="_blank" rel="noopener noreferrer">a chart</a>');
    // The second is not an image to marked at all: text, with no attribute anywhere.
    expect(html).not.toMatch(/<[^>]+onerror=/);
  });

  it('opens web links in a new tab with rel=noopener, and leaves javascript: and relative links as text', async () => {
    const html = await render(
      '[docs](https://docs.example.com/a?b=1) [mail](mailto:a@example.com) [bad](javascript:alert(1)) [BAD](JaVaScRiPt:window.__pwned=1) [data](data:text/html,hi) [file](src/app.ts) <https://auto.example.com>',
    );
    const links = await page.evaluate((h) => {
      const box = document.createElement('div');
      box.innerHTML = h;
      return Array.from(box.querySelectorAll('a')).map((a) => ({ text: a.textContent, href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') }));
    }, html);
    expect(links).toEqual([
      { text: 'docs', href: 'https://docs.example.com/a?b=1', target: '_blank', rel: 'noopener noreferrer' },
      { text: 'mail', href: 'mailto:a@example.com', target: '_blank', rel: 'noopener noreferrer' },
      { text: 'bad', href: null, target: null, rel: null },
      { text: 'BAD', href: null, target: null, rel: null },
      { text: 'data', href: null, target: null, rel: null },
      { text: 'file', href: null, target: null, rel: null },
      { text: 'https://auto.example.com', href: 'https://auto.example.com', target: '_blank', rel: 'noopener noreferrer' },
    ]);
  });

  it('nests blockquotes and lists 8 deep at most: 2 KB of `>` renders, the markers past that as text', async () => {
    const nesting = (html: string, selector: string) =>
      page.evaluate(
        ({ h, sel }) => {
          const box = document.createElement('div');
          box.innerHTML = h;
          let deepest = 0;
          for (const el of Array.from(box.querySelectorAll(sel))) {
            let depth = 0;
            for (let at: Element | null = el; at && at !== box; at = at.parentElement) if (at.matches(sel)) depth++;
            deepest = Math.max(deepest, depth);
          }
          return { deepest, text: box.textContent ?? '' };
        },
        { h: html, sel: selector },
      );
    const quotes = await nesting(await render(`${'>'.repeat(2048)} the deepest line`), 'blockquote');
    expect(quotes.deepest).toBe(8);
    expect(quotes.text).toContain(`${'>'.repeat(2048 - 8)} the deepest line`);
    const lists = await nesting(await render(`${'- '.repeat(1024)}item`), 'ul');
    expect(lists.deepest).toBe(8);
    expect(lists.text).toContain(`${'- '.repeat(1024 - 8)}item`);
    const mixed = await nesting(await render(`${'> 1. '.repeat(512)}item`), 'blockquote, ol');
    expect(mixed.deepest).toBe(8);
    // Up to the bound, nesting is Markdown as ever.
    expect((await nesting(await render(`${'>'.repeat(8)} eight`), 'blockquote')).deepest).toBe(8);
    const nine = await nesting(await render(`${'>'.repeat(9)} nine`), 'blockquote');
    expect(nine).toEqual({ deepest: 8, text: expect.stringContaining('> nine') });
  });

  it('nests emphasis, strong and struck text 8 deep at most', async () => {
    for (const [open, close, tag] of [
      ['*a ', ' z*', 'em'],
      ['**a ', ' z**', 'strong'],
      ['~~a ', ' z~~', 'del'],
    ] as const) {
      const html = await render(`${open.repeat(3000)}middle${close.repeat(3000)}`);
      const deepest = await page.evaluate(
        ({ h, t }) => {
          const box = document.createElement('div');
          box.innerHTML = h;
          let n = 0;
          for (let at = box.querySelector(t); at; at = at.querySelector(t)) n++;
          return n;
        },
        { h: html, t: tag },
      );
      expect(deepest, tag).toBeGreaterThan(0);
      expect(deepest, tag).toBeLessThanOrEqual(8);
      expect(html, tag).toContain('middle');
    }
  });

  it('keeps task list boxes that cannot be ticked, and single line breaks as breaks', async () => {
    const html = await render('- [x] done\n- [ ] to do\n\nline one\nline two');
    expect(html).toMatch(/<input[^>]*checked[^>]*>|<input[^>]*type="checkbox"[^>]*>/);
    const boxes = await page.evaluate((h) => {
      const box = document.createElement('div');
      box.innerHTML = h;
      return Array.from(box.querySelectorAll('input')).map((i) => ({ type: i.type, disabled: i.disabled, checked: i.checked }));
    }, html);
    expect(boxes).toEqual([
      { type: 'checkbox', disabled: true, checked: true },
      { type: 'checkbox', disabled: true, checked: false },
    ]);
    expect(html).toContain('line one<br>line two');
  });
});
