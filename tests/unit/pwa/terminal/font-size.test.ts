import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../support/memory-storage.js';
import {
  clampFontSize,
  defaultFontSize,
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  FONT_SIZE_STORAGE_KEY,
  loadFontSize,
  parseFontSize,
  saveFontSize,
  stepFontSize,
} from '../../../../pwa/terminal/font-size.js';


describe('the terminal text size', () => {
  it('is bounded to 8..32 whole pixels', () => {
    expect([FONT_SIZE_MIN, FONT_SIZE_MAX]).toEqual([8, 32]);
    expect(clampFontSize(3)).toBe(8);
    expect(clampFontSize(-20)).toBe(8);
    expect(clampFontSize(40)).toBe(32);
    expect(clampFontSize(14.4)).toBe(14);
    expect(clampFontSize(14.5)).toBe(15);
  });

  it('reads a saved plain number, bounded; anything else is nothing saved', () => {
    expect(parseFontSize('16')).toBe(16);
    expect(parseFontSize(' 18 ')).toBe(18);
    expect(parseFontSize('15.6')).toBe(16);
    expect(parseFontSize('4')).toBe(8);
    expect(parseFontSize('99')).toBe(32);
    for (const bad of [null, undefined, '', 'big', '-3', '1e3', '0x10', '16px', 'NaN', 'Infinity', '1234', '12,5']) {
      expect(parseFontSize(bad), String(bad)).toBeNull();
    }
  });

  it('steps by one pixel, stops at the bounds, and resets to the device default', () => {
    expect(stepFontSize(14, 'bigger', 14)).toBe(15);
    expect(stepFontSize(14, 'smaller', 14)).toBe(13);
    expect(stepFontSize(32, 'bigger', 14)).toBe(32);
    expect(stepFontSize(8, 'smaller', 14)).toBe(8);
    expect(stepFontSize(20, 'reset', 13)).toBe(13);
  });

  it('defaults a little smaller on a touch screen', () => {
    expect(defaultFontSize(true)).toBe(13);
    expect(defaultFontSize(false)).toBe(14);
  });

  it('sticks per device: saved, read back, and the default kept as nothing saved', () => {
    const store = memoryStorage();
    expect(loadFontSize(false, store)).toBe(14);
    saveFontSize(17, false, store);
    expect(store.items.get(FONT_SIZE_STORAGE_KEY)).toBe('17');
    expect(loadFontSize(false, store)).toBe(17);
    expect(loadFontSize(true, store)).toBe(17);
    saveFontSize(14, false, store);
    expect(store.items.has(FONT_SIZE_STORAGE_KEY)).toBe(false);
    expect(loadFontSize(true, store)).toBe(13);
  });

  it('falls back to the default when storage holds junk, refuses, or is missing', () => {
    expect(loadFontSize(false, memoryStorage({ [FONT_SIZE_STORAGE_KEY]: 'huge' }))).toBe(14);
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(loadFontSize(true, refusing)).toBe(13);
    expect(() => saveFontSize(20, true, refusing)).not.toThrow();
    expect(loadFontSize(false, null)).toBe(14);
    expect(() => saveFontSize(20, false, null)).not.toThrow();
  });
});
