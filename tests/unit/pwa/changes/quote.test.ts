import { describe, expect, it } from 'vitest';
import { quoteLabel, quoteLines } from '../../../../pwa/changes/quote.js';

describe('quoting picked lines for Claude', () => {
  it('names the lines on the new side, and keeps a change\u2019s signs', () => {
    const lines = [
      { op: '-' as const, text: 'const port = 8080;', old: 3 },
      { op: '+' as const, text: 'const port = Number(process.env.PORT ?? 8080);', new: 3 },
      { op: ' ' as const, text: 'const retries = 3;', old: 4, new: 4 },
    ];
    expect(quoteLines('src/app.ts', lines)).toBe(['src/app.ts:3-4', '```diff', '-const port = 8080;', '+const port = Number(process.env.PORT ?? 8080);', ' const retries = 3;', '```'].join('\n'));
  });

  it('quotes unchanged lines plainly, and removed ones by where they were', () => {
    expect(quoteLines('a.md', [{ op: ' ', text: 'hello', old: 9, new: 10 }])).toBe(['a.md:10', '```', 'hello', '```'].join('\n'));
    expect(quoteLabel('a.md', [{ op: '-', text: 'x', old: 7 }, { op: '-', text: 'y', old: 8 }])).toBe('a.md:7-8 (removed)');
  });

  it('fences lines that hold backticks with a longer fence', () => {
    const quoted = quoteLines('r.md', [{ op: '+', text: '```js', new: 1 }]);
    expect(quoted.split('\n')[1]).toBe('````diff');
    expect(quoted.split('\n').at(-1)).toBe('````');
  });
});
