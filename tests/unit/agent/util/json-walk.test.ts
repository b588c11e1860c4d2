/**
 * Parsed JSON walked without recursion: the same text as `JSON.stringify` for any JSON value it
 * can write, and any depth at all for the ones it cannot.
 */
import { describe, expect, it } from 'vitest';
import { jsonDepth, writeJson } from '../../../../agent/util/json-walk.js';

function written(value: unknown): string {
  const pieces: string[] = [];
  writeJson(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** `[[[…1…]]]` or `{"a":{"a":…}}`, `depth` deep, as JSON.parse makes it (no recursion here either). */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  const text = kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return JSON.parse(text);
}

describe('writeJson', () => {
  it('writes what JSON.stringify writes', () => {
    const values: unknown[] = [
      null,
      true,
      0,
      -1.5e-7,
      '',
      'quote " backslash \\ newline \n ESC \u001b bidi \u202e emoji 😀',
      [],
      {},
      [1, [2, [3, []]], {}],
      { command: 'npm test', edits: [{ old_string: 'a', new_string: 'b' }], n: null, deep: { x: [true, false] } },
      JSON.parse('{"__proto__": {"polluted": 1}, "constructor": "c", "toString": [1]}'),
      JSON.parse('{"2": "b", "1": "a", "z": 0, "y": 1}'),
    ];
    for (const value of values) expect(written(value), JSON.stringify(value)).toBe(JSON.stringify(value));
  });

  it('writes a value nested 1,000,000 deep, where JSON.stringify overflows the stack', () => {
    const deep = nested(1_000_000, 'array');
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(written(deep)).toBe(`${'['.repeat(1_000_000)}1${']'.repeat(1_000_000)}`);
    const objects = nested(100_000, 'object');
    expect(written(objects)).toBe(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
  });
});

describe('jsonDepth', () => {
  it('counts the nesting of arrays and objects', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth('text')).toBe(0);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth({ a: [1, { b: [] }], c: 2 })).toBe(4);
    expect(jsonDepth(nested(1_000_000, 'array'))).toBe(1_000_000);
    expect(jsonDepth(nested(100_000, 'object'))).toBe(100_000);
  });
});
