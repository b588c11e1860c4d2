import { describe, expect, it } from 'vitest';
import { FIND_HIGHLIGHT_LIMIT, matchCountText } from '../../../../pwa/terminal/find-count.js';

describe("the find bar's count", () => {
  it('says which match is current out of how many', () => {
    expect(matchCountText('line', { resultIndex: 2, resultCount: 12 })).toBe('3 of 12');
    expect(matchCountText('line-0042', { resultIndex: 0, resultCount: 1 })).toBe('1 of 1');
  });

  it('says so when nothing matches', () => {
    expect(matchCountText('nope', { resultIndex: -1, resultCount: 0 })).toBe('No results');
  });

  it('says nothing before a search, or for an empty query', () => {
    expect(matchCountText('', null)).toBe('');
    expect(matchCountText('', { resultIndex: 0, resultCount: 3 })).toBe('');
    expect(matchCountText('x', null)).toBe('');
  });

  it('counts matches without a current one, and caps the count at the highlight limit', () => {
    expect(matchCountText('x', { resultIndex: -1, resultCount: 5 })).toBe('5 matches');
    expect(matchCountText('x', { resultIndex: -1, resultCount: 1 })).toBe('1 match');
    expect(FIND_HIGHLIGHT_LIMIT).toBe(1000);
    expect(matchCountText('e', { resultIndex: -1, resultCount: 1000 })).toBe('1000+ matches');
    expect(matchCountText('e', { resultIndex: 4, resultCount: 1000 })).toBe('5 of 1000+');
    expect(matchCountText('e', { resultIndex: 4, resultCount: 50 }, 50)).toBe('5 of 50+');
  });
});
