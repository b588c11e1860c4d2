import { describe, expect, it } from 'vitest';
import { acceptedEncodings } from '../../../../agent/http/accept-encoding.js';

describe('acceptedEncodings', () => {
  it.each([
    [undefined, ['identity']],
    ['', ['identity']],
    ['br, gzip', ['br', 'gzip', 'identity']],
    ['gzip, br', ['br', 'gzip', 'identity']],
    ['gzip, deflate, br, zstd', ['br', 'gzip', 'identity']],
    ['gzip', ['gzip', 'identity']],
    ['x-gzip', ['gzip', 'identity']],
    ['GZip ; Q=0.5', ['gzip', 'identity']],
    ['br;q=0.5, gzip', ['gzip', 'br', 'identity']],
    ['br;q=0.8, gzip;q=0.8', ['br', 'gzip', 'identity']],
    ['br;q=0, gzip', ['gzip', 'identity']],
    ['br;q=0.000, gzip;q=0', ['identity']],
    ['identity', ['identity']],
    ['identity;q=0', []],
    ['br, identity;q=0', ['br']],
    ['*', ['br', 'gzip', 'identity']],
    ['*;q=0', []],
    ['*;q=0, identity', ['identity']],
    ['*;q=0, gzip', ['gzip']],
    ['*;q=0.5, br', ['br', 'gzip', 'identity']],
    ['identity;q=1, br;q=0.5', ['identity', 'br']],
    // The first mention counts.
    ['br, br;q=0', ['br', 'identity']],
  ] as const)('%j → %j', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });

  it.each([
    ['br;q=2, gzip', ['gzip', 'identity']],
    ['br;q=0.5x, gzip', ['gzip', 'identity']],
    ['br;q=, gzip', ['gzip', 'identity']],
    ['br;q=0.0001, gzip', ['gzip', 'identity']],
    ['b r, gzip', ['gzip', 'identity']],
    ['"br", gzip', ['gzip', 'identity']],
    [',,, ;q=1, gzip', ['gzip', 'identity']],
    ['identity;q=-1', ['identity']],
  ] as const)('leaves out an entry that does not parse: %j → %j', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });

  it('reads a header of thousands of entries without trouble', () => {
    const header = `${Array.from({ length: 4000 }, (_, i) => `c${i};q=0.${i % 10}`).join(', ')}, br;q=0.3`;
    expect(acceptedEncodings(header)).toEqual(['br', 'identity']);
  });
});
