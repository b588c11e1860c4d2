/**
 * Claude's answers as Markdown: paragraphs, lists, tables, code blocks with a copy button.
 * Part of the timeline's chunk, so marked and DOMPurify load only with the timeline.
 *
 * Nothing in an answer becomes live: raw HTML in the Markdown is shown as the text it is (an
 * answer about HTML shows its tags), and what marked makes is sanitised by DOMPurify to a short
 * list of tags and attributes; links to the web open in a new tab with `rel=noopener`, any
 * other link (a relative path, `javascript:`) is left as text, and images are links too: an
 * answer never makes the phone fetch anything by itself.
 */
import DOMPurify from 'dompurify';
import { Marked, Tokenizer, type Tokens } from 'marked';

const ALLOWED_TAGS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled'];

/** Links that may open: the web and mail. */
const LIVE_LINK = /^(?:https?:|mailto:)/i;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * How deep blockquotes and lists may nest in one another, and emphasis, strong and struck
 * text in one another. marked lexes and renders each level by recursion, and an answer of
 * 2 KB of `>` (or `- `, or `*a `) nested deep enough to overflow the stack, which left the
 * whole timeline unrendered. Past the bound a marker is text: a ninth `>` shows as `>`.
 * Answers people read nest three or four deep, and eight indented levels still leave a
 * phone's screen room for the text inside them.
 */
export const MAX_NESTING = 8;

/** Runs one level of nesting, or refuses (undefined: not this construct, read as text) past the bound. */
function nestingWithin(): <T>(tokenize: () => T) => T | undefined {
  let depth = 0;
  return (tokenize) => {
    if (depth >= MAX_NESTING) return undefined;
    depth++;
    try {
      return tokenize();
    } finally {
      depth--;
    }
  };
}

const block = nestingWithin();
const inline = nestingWithin();
const base = Tokenizer.prototype;

const markdown = new Marked({ gfm: true, breaks: true, async: false });
markdown.use({
  tokenizer: {
    blockquote(src: string) {
      return block(() => base.blockquote.call(this, src));
    },
    list(src: string) {
      return block(() => base.list.call(this, src));
    },
    emStrong(src: string, maskedSrc: string, prevChar?: string) {
      return inline(() => base.emStrong.call(this, src, maskedSrc, prevChar));
    },
    del(src: string, maskedSrc: string, prevChar?: string) {
      return inline(() => base.del.call(this, src, maskedSrc, prevChar));
    },
  },
  renderer: {
    // Raw HTML is text: what Claude writes about HTML, shown as written.
    html(token: Tokens.HTML | Tokens.Tag): string {
      const text = escapeHtml(token.text);
      return 'block' in token && token.block ? `<p>${text.trim().replace(/\n/g, '<br>')}</p>` : text;
    },
    image({ href, title, text }: Tokens.Image): string {
      const label = escapeHtml(text || href);
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
    },
  },
});

type Purifier = ReturnType<typeof DOMPurify>;
let purifier: Purifier | null = null;

function purify(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    switch (el.tagName) {
      case 'A': {
        const href = el.getAttribute('href');
        if (href !== null && LIVE_LINK.test(href.trim())) {
          el.setAttribute('target', '_blank');
          el.setAttribute('rel', 'noopener noreferrer');
        } else {
          el.removeAttribute('href');
        }
        break;
      }
      case 'INPUT':
        // Only a task list's box, and never one to tick.
        el.setAttribute('type', 'checkbox');
        el.setAttribute('disabled', '');
        break;
      case 'CODE': {
        const lang = (el.getAttribute('class') ?? '').split(/\s+/).find((c) => /^language-[\w+#.-]{1,40}$/.test(c));
        if (lang) el.setAttribute('class', lang);
        else el.removeAttribute('class');
        break;
      }
      default:
        el.removeAttribute('class');
    }
  });
  purifier = p;
  return p;
}

/** A code block's language, from marked's `language-…` class. */
function languageOf(pre: Element): string {
  const cls = pre.querySelector('code')?.getAttribute('class') ?? '';
  return cls.startsWith('language-') ? cls.slice('language-'.length) : '';
}

/**
 * Safe HTML for Claude's Markdown `text`: what the timeline puts in the page. Each code block
 * stands in a `.code` box under a bar with its language and a `button.copy`; each table in a
 * `.table` box that scrolls sideways on its own. Never throws: an answer that cannot be made
 * Markdown of is shown as the text it is, and the rest of the timeline renders.
 */
export function renderMarkdown(text: string): string {
  try {
    return markdownHtml(text);
  } catch {
    return `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
  }
}

function markdownHtml(text: string): string {
  const html = markdown.parse(text, { async: false });
  const fragment = purify().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  const doc = document;
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) {
    const box = doc.createElement('div');
    box.className = 'code';
    const bar = doc.createElement('div');
    bar.className = 'code-bar';
    const lang = doc.createElement('span');
    lang.className = 'lang';
    lang.textContent = languageOf(pre);
    const copy = doc.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.setAttribute('aria-label', 'Copy code');
    copy.textContent = 'Copy';
    bar.append(lang, copy);
    pre.replaceWith(box);
    box.append(bar, pre);
  }
  for (const table of Array.from(fragment.querySelectorAll('table'))) {
    const box = doc.createElement('div');
    box.className = 'table';
    table.replaceWith(box);
    box.append(table);
  }
  const out = doc.createElement('div');
  out.append(fragment);
  return out.innerHTML;
}
