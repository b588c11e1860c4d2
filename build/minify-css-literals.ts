/**
 * The PWA's looks are Lit `css` tagged templates, which the bundler ships as written: every
 * comment and indent of them reached the phone (about 1.2 KB of the first screen's Brotli
 * bytes were comments alone). This plugin takes them out of each `css` template of the
 * PWA's own modules at build time; the source keeps them.
 */
import { type ESTree, type Plugin, parseSync, Visitor } from 'vite';

/** Characters a space beside carries nothing; after a colon neither (`color: red`). */
const TIGHT = new Set(['{', '}', ';', ',']);

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f';
}

/**
 * One piece of a `css` template's source text, comments removed and whitespace collapsed.
 * Quoted strings and backslash escapes (of CSS or of the template) are kept as they are, and
 * a space between two words stays one space, so every rule means what it meant. `edges` says
 * whether the piece starts or ends the template: where it meets an interpolation instead, a
 * space at that end is kept, as the interpolated text may need it.
 */
export function minifyCssText(raw: string, edges: { first: boolean; last: boolean } = { first: true, last: true }): string {
  let out = '';
  let space = false;
  const spaceNeededBefore = (next: string): boolean => {
    if (TIGHT.has(next)) return false;
    if (out === '') return !edges.first;
    const before = out.at(-1) as string;
    return !TIGHT.has(before) && before !== ':';
  };
  const put = (text: string) => {
    if (space && spaceNeededBefore(text[0] as string)) out += ' ';
    space = false;
    out += text;
  };
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i] as string;
    if (ch === '/' && raw[i + 1] === '*') {
      const end = raw.indexOf('*/', i + 2);
      // An unclosed comment is not ours to guess about: the rest stays as written.
      if (end === -1) {
        put(raw.slice(i));
        return out;
      }
      space = true;
      i = end + 2;
    } else if (isSpace(ch)) {
      space = true;
      i++;
    } else if (ch === '\\') {
      put(raw.slice(i, i + 2));
      i += 2;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < raw.length && raw[j] !== ch && raw[j] !== '\n') j += raw[j] === '\\' ? 2 : 1;
      put(raw.slice(i, j + 1));
      i = j + 1;
    } else if (ch === '}' && out.endsWith(';') && !out.endsWith('\\;')) {
      // The last declaration of a block needs no semicolon.
      out = out.slice(0, -1);
      space = false;
      put(ch);
      i++;
    } else {
      put(ch);
      i++;
    }
  }
  if (space && !edges.last && spaceNeededBefore('')) out += ' ';
  return out;
}

/** Whether `tag` is the `css` of Lit's `css\`...\``. */
function isCssTag(tag: ESTree.Expression, cssNames: ReadonlySet<string>): boolean {
  return tag.type === 'Identifier' && cssNames.has(tag.name);
}

/** The local names `css` is imported under from Lit in this module. */
function litCssNames(program: ESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const node of program.body) {
    if (node.type !== 'ImportDeclaration' || (node.source.value !== 'lit' && node.source.value !== 'lit-element')) continue;
    for (const spec of node.specifiers) {
      if (spec.type === 'ImportSpecifier' && spec.imported.type === 'Identifier' && spec.imported.name === 'css') names.add(spec.local.name);
    }
  }
  return names;
}

/** `code` with the text of every Lit `css` template minified; the same string when it has none. */
export function minifyCssLiterals(code: string, filename: string): string {
  if (!code.includes('`')) return code;
  const { program, errors } = parseSync(filename, code);
  if (errors.length > 0) return code;
  const cssNames = litCssNames(program);
  if (cssNames.size === 0) return code;
  const edits: { start: number; end: number; text: string }[] = [];
  new Visitor({
    TaggedTemplateExpression(node) {
      if (!isCssTag(node.tag, cssNames)) return;
      const quasis = node.quasi.quasis;
      quasis.forEach((quasi, index) => {
        const raw = quasi.value.raw;
        // The parser's span starts at the backtick or the `}` before the text. Only text found
        // exactly there, ended by the backtick or the next `${`, is rewritten.
        const start = quasi.start + 1;
        const end = start + raw.length;
        if (code.slice(start, end) !== raw || (code[end] !== '`' && code[end] !== '$')) return;
        edits.push({ start, end, text: minifyCssText(raw, { first: index === 0, last: index === quasis.length - 1 }) });
      });
    },
  }).visit(program);
  let result = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The build step: every TypeScript module of the PWA's own, its `css` templates minified. */
export function minifyCssLiteralsPlugin(): Plugin {
  return {
    name: 'pocketmux:minify-css-literals',
    apply: 'build',
    transform: {
      filter: { id: { include: /\.ts$/, exclude: /node_modules/ } },
      handler(code, id) {
        const minified = minifyCssLiterals(code, id);
        return minified === code ? null : { code: minified, map: null };
      },
    },
  };
}
