import { describe, expect, it } from 'vitest';
import { unsafeLinesProblem, unsafeTextProblem, visibleJson, visibleLines, visibleText } from '../../../protocol/safe-text.js';

// Every character the terminal or the bidi algorithm acts on, by class.
const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const DEL = '\u007f';
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const SEPARATORS = ['\u2028', '\u2029'];
const ALL_UNSAFE = [...C0, DEL, ...C1, ...BIDI, ...SEPARATORS];
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const PLAIN = [
  'plain ascii ~/proj/a-b_c.d (1) [x] {y} $HOME "q" \'s\' \\ back',
  '日本語のディレクトリ',
  'Ünïcödé façade naïve',
  'emoji 🚀 👨‍👩‍👧 🏳️‍🌈 👍🏽',
  'עברית and العربية mixed',
  'zero\u200bwidth\u00a0nbsp\u00adsoft',
];

describe('visibleText', () => {
  it('writes the terminal title attack out as readable escapes', () => {
    expect(visibleText('\x1b]0;owned\x07\x1b[2J')).toBe('\\x1b]0;owned\\x07\\x1b[2J');
  });

  it('escapes every C0 control and DEL as \\xHH', () => {
    for (const c of [...C0, DEL]) {
      const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
      expect(visibleText(`a${c}b`)).toBe(`a\\x${hex}b`);
    }
  });

  it('escapes C1 controls, separators and bidi formatting characters as \\uHHHH', () => {
    for (const c of [...C1, ...BIDI, ...SEPARATORS]) {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      expect(visibleText(`a${c}b`)).toBe(`a\\u${hex}b`);
    }
  });

  it('leaves plain text, CJK, emoji sequences and RTL scripts unchanged', () => {
    for (const text of PLAIN) expect(visibleText(text)).toBe(text);
  });

  it('never leaves an unsafe character behind', () => {
    expect(visibleText(ALL_UNSAFE.join(''))).not.toMatch(RAW_UNSAFE);
  });
});

describe('visibleJson', () => {
  it('escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { name: ALL_UNSAFE.join(''), plain: PLAIN, nested: [{ path: '/home/\u202eexe.txt\u0085' }] };
    const json = visibleJson(value, 2);
    // The indentation's own newlines are the only control characters left.
    expect(json.replaceAll('\n', '')).not.toMatch(RAW_UNSAFE);
    expect(json).toContain('\\u202e');
    expect(json).toContain('\\u0085');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('is JSON.stringify itself for safe values', () => {
    const value = { plain: PLAIN, n: 1, nothing: null };
    expect(visibleJson(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(visibleJson(value)).toBe(JSON.stringify(value));
  });
});

describe('unsafeTextProblem', () => {
  it('names the class and the code point of the first unsafe character', () => {
    expect(unsafeTextProblem('a\tb')).toBe('control characters (found U+0009)');
    expect(unsafeTextProblem('a\u009bb')).toBe('control characters (found U+009B)');
    expect(unsafeTextProblem('a\u202eb')).toBe('bidirectional formatting characters (found U+202E)');
    expect(unsafeTextProblem('a\u200fb')).toBe('bidirectional formatting characters (found U+200F)');
    expect(unsafeTextProblem('a\u2028b')).toBe('line or paragraph separators (found U+2028)');
  });

  it('finds nothing wrong with plain text', () => {
    for (const text of PLAIN) expect(unsafeTextProblem(text)).toBeNull();
  });
});

describe('unsafeLinesProblem', () => {
  it('refuses what unsafeTextProblem refuses but tab and newline, naming it', () => {
    for (const char of ALL_UNSAFE) {
      const code = `U+${(char.codePointAt(0) as number).toString(16).padStart(4, '0').toUpperCase()}`;
      if (char === '\t' || char === '\n') expect(unsafeLinesProblem(`a${char}b`), code).toBeNull();
      else expect(unsafeLinesProblem(`a${char}b`), code).toBe(unsafeTextProblem(`a${char}b`));
    }
    expect(unsafeLinesProblem('first line\n\tindented')).toBeNull();
    expect(unsafeLinesProblem('windows\r\nline')).toBe('control characters (found U+000D)');
  });

  it('finds nothing wrong with plain text', () => {
    for (const text of PLAIN) expect(unsafeLinesProblem(text)).toBeNull();
  });
});

describe('visibleLines', () => {
  it('keeps the line breaks and escapes everything else on each line', () => {
    expect(visibleLines('Error: bad\x1b[2J\n    at f (/tmp/\u202eevil.js:1:1)\r')).toBe('Error: bad\\x1b[2J\n    at f (/tmp/\\u202eevil.js:1:1)\\x0d');
  });
});
