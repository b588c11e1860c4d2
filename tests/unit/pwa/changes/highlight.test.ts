import { describe, expect, it } from 'vitest';
import { highlightLine, languageOf, overlay } from '../../../../pwa/changes/highlight.js';

const shown = (tokens: { text: string; kind?: string }[]) => tokens.map((t) => (t.kind ? `<${t.kind}>${t.text}</>` : t.text)).join('');

describe('highlightLine', () => {
  it('colours keywords, strings, numbers and comments of a C-like line', () => {
    expect(shown(highlightLine('const port = Number(process.env.PORT ?? 8080); // the "port"', 'c'))).toBe(
      '<kw>const</> port = Number(process.env.PORT ?? <num>8080</>); <com>// the "port"</>',
    );
    expect(shown(highlightLine('let s = "a \\" b" + \'c\';', 'c'))).toBe('<kw>let</> s = <str>"a \\" b"</> + <str>\'c\'</>;');
    expect(shown(highlightLine('  * inside a block comment', 'c'))).toBe('<com>  * inside a block comment</>');
    expect(shown(highlightLine('x = 1 /* note */ + 0x1F', 'c'))).toBe('x = <num>1</> <com>/* note */</> + <num>0x1F</>');
  });

  it('knows # comments and its keywords in a script, and leaves an unknown language plain', () => {
    expect(shown(highlightLine('def f(x): return None  # none', 'script'))).toBe('<kw>def</> f(x): <kw>return</> <kw>None</>  <com># none</>');
    expect(highlightLine('const x = 1', null)).toEqual([{ text: 'const x = 1' }]);
  });

  it('covers the line whole, whatever it holds, and never throws', () => {
    for (const line of ['"unterminated', '/* open', 'a\\', '\u202e bidi', '😀 const', '0x', '//', '']) {
      for (const lang of ['c', 'script', 'sql', 'css', 'data', null]) {
        expect(highlightLine(line, lang).map((t) => t.text).join('')).toBe(line);
      }
    }
  });

  it('tells the language by the extension', () => {
    expect(['a/b.ts', 'x.PY', 'Makefile', 'q.sql', 'c.yml', 'README', '.env', 'notes.md'].map(languageOf)).toEqual(['c', 'script', 'script', 'sql', 'data', null, null, null]);
  });
});

describe('overlay', () => {
  it('cuts a line where either cutting does', () => {
    const text = 'const port = 8080;';
    const marks = [{ text: 'const port = ', value: false }, { text: '8080', value: true }, { text: ';', value: false }];
    const tokens = highlightLine(text, 'c').map((t) => ({ text: t.text, value: t.kind }));
    expect(overlay(text, marks, tokens)).toEqual([
      { text: 'const', a: false, b: 'kw' },
      { text: ' port = ', a: false, b: undefined },
      { text: '8080', a: true, b: 'num' },
      { text: ';', a: false, b: undefined },
    ]);
  });
});
