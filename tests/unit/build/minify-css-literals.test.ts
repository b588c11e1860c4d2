import { describe, expect, it } from 'vitest';
import { minifyCssLiterals, minifyCssText } from '../../../build/minify-css-literals.js';

describe('minifyCssText', () => {
  it('drops comments and the whitespace around braces, semicolons, commas and after colons', () => {
    const css = `
      /* Why the card is ringed. */
      :host([highlight]) .card,
      .other > .x {
        outline: 2px solid transparent; /* a trailing note */
        grid-template-columns: repeat(6, minmax(0, 1fr));
      }
    `;
    expect(minifyCssText(css)).toBe(':host([highlight]) .card,.other > .x{outline:2px solid transparent;grid-template-columns:repeat(6,minmax(0,1fr))}');
  });

  it('keeps the space a selector or a value needs, and none other', () => {
    expect(minifyCssText('a :is(b)  c{margin:0  auto}')).toBe('a :is(b) c{margin:0 auto}');
    expect(minifyCssText('.a{width:calc(100% - 24px)}')).toBe('.a{width:calc(100% - 24px)}');
    expect(minifyCssText('.a{color:red !important;}')).toBe('.a{color:red !important}');
    expect(minifyCssText('@media (max-width: 600px) and (hover: none) { .a { b: c } }')).toBe('@media (max-width:600px) and (hover:none){.a{b:c}}');
    // A comment between two words still parts them.
    expect(minifyCssText('a/* x */b')).toBe('a b');
  });

  it('keeps quoted strings and escapes exactly as written', () => {
    expect(minifyCssText(`.a::before { content: '  /* not a comment */ ; } '; }`)).toBe(`.a::before{content:'  /* not a comment */ ; } '}`);
    expect(minifyCssText(`.a { content: "a \\" b"; }`)).toBe(`.a{content:"a \\" b"}`);
    expect(minifyCssText('.a\\:b { c: d\\; }')).toBe('.a\\:b{c:d\\;}');
    expect(minifyCssText('.a { content: "\\2026" }')).toBe('.a{content:"\\2026"}');
  });

  it('keeps a space where a piece meets an interpolation, whose text may need it', () => {
    expect(minifyCssText('\n  width: ', { first: true, last: false })).toBe('width:');
    expect(minifyCssText('px solid ', { first: false, last: false })).toBe('px solid ');
    expect(minifyCssText(' .b { c: d }\n', { first: false, last: true })).toBe(' .b{c:d}');
    expect(minifyCssText('{ c: d; }\n', { first: false, last: true })).toBe('{c:d}');
    expect(minifyCssText('  ', { first: false, last: false })).toBe(' ');
  });

  it('leaves an unclosed comment and what follows it as written', () => {
    expect(minifyCssText('.a { b: c } /* open  \n .d')).toBe('.a{b:c}/* open  \n .d');
  });
});

describe('minifyCssLiterals', () => {
  it("minifies Lit's css templates, interpolations and other templates untouched", () => {
    // A module's source text: its interpolation is the characters `${size}`, not a value.
    const interpolation = `$${'{size}'}`;
    const source = [
      "import { css, html } from 'lit';",
      'const size = 4;',
      'export const styles = css`',
      '  /* note */',
      '  .a {',
      `    width: ${interpolation}px;`,
      '    color: “red”;',
      '  }',
      '`;',
      'export const view = html`<p>  a  </p>`;',
      'const other = (s: TemplateStringsArray) => s;',
      'export const kept = other`.b {  c: d  }`;',
    ].join('\n');
    const out = minifyCssLiterals(source, 'styles.ts');
    expect(out).toContain(`css\`.a{width:${interpolation}px;color:“red”}\``);
    expect(out).toContain('html`<p>  a  </p>`');
    expect(out).toContain('other`.b {  c: d  }`');
  });

  it('follows css imported under another name, and leaves a module without Lit alone', () => {
    const renamed = "import { css as style } from 'lit';\nexport const s = style`.a {  b: c; }`;\n";
    expect(minifyCssLiterals(renamed, 'a.ts')).toBe("import { css as style } from 'lit';\nexport const s = style`.a{b:c}`;\n");
    const notLit = "const css = (s: TemplateStringsArray) => s;\nexport const s = css`.a {  b: c; }`;\n";
    expect(minifyCssLiterals(notLit, 'b.ts')).toBe(notLit);
  });

  it('returns the source unchanged when it does not parse', () => {
    const broken = "import { css } from 'lit';\nconst s = css`.a { b: c }`;\nconst = ;\n";
    expect(minifyCssLiterals(broken, 'c.ts')).toBe(broken);
  });
});
