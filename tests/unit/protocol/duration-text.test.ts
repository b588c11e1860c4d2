import { describe, expect, it } from 'vitest';
import { durationText } from '../../../protocol/duration-text.js';

describe('durationText', () => {
  it('says a limit as it is, with the right plural', () => {
    expect(durationText(60)).toBe('1 minute');
    expect(durationText(600)).toBe('10 minutes');
    expect(durationText(1)).toBe('1 second');
    expect(durationText(2)).toBe('2 seconds');
    expect(durationText(90)).toBe('90 seconds');
    expect(durationText(150)).toBe('2 minutes 30 seconds');
    expect(durationText(3600)).toBe('1 hour');
    expect(durationText(5400)).toBe('1 hour 30 minutes');
    expect(durationText(7261)).toBe('2 hours 1 minute 1 second');
  });

  it('says nothing it cannot stand behind for odd input', () => {
    expect(durationText(0)).toBe('0 seconds');
    expect(durationText(-5)).toBe('0 seconds');
    expect(durationText(Number.NaN)).toBe('0 seconds');
  });
});
