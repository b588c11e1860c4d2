import { describe, expect, it } from 'vitest';
import { connectionToDrop } from '../../../../agent/util/connection-to-drop.js';

const limits = { total: 6, perDevice: 3 };

describe('which terminal makes room', () => {
  it('drops nothing while the device and the agent have room', () => {
    expect(connectionToDrop([], 'a', limits)).toBeNull();
    expect(connectionToDrop(['a', 'b', 'a'], 'a', limits)).toBeNull();
  });

  it("drops the device's own oldest terminal when it is at its own cap, never another device's", () => {
    expect(connectionToDrop(['b', 'a', 'c', 'a', 'a'], 'a', limits)).toEqual({ index: 1, cap: 'device' });
  });

  it('the CLI is a device like any other', () => {
    expect(connectionToDrop(['cli', 'cli', 'a', 'cli'], 'cli', limits)).toEqual({ index: 0, cap: 'device' });
  });

  it('at the agent cap, drops the oldest terminal of the device holding the most', () => {
    // b holds 3, a and c hold fewer: b's oldest (index 1) goes, though a's is older.
    expect(connectionToDrop(['a', 'b', 'c', 'b', 'a', 'b'], 'd', { total: 6, perDevice: 4 })).toEqual({ index: 1, cap: 'total' });
  });

  it('on a tie, drops from the device whose oldest terminal is older', () => {
    expect(connectionToDrop(['c', 'a', 'b', 'a', 'b', 'c'], 'd', limits)).toEqual({ index: 0, cap: 'total' });
  });

  it('repeated until there is room, it never takes more than needed', () => {
    const open = ['a', 'a', 'a', 'b', 'b', 'c'];
    const dropped: string[] = [];
    for (;;) {
      const drop = connectionToDrop(open, 'c', limits);
      if (!drop) break;
      dropped.push(...open.splice(drop.index, 1));
    }
    expect(dropped).toEqual(['a']);
    expect(open).toEqual(['a', 'a', 'b', 'b', 'c']);
  });
});
