import { describe, expect, it } from 'vitest';
import { type BarKey, barKeySequence, withCtrl } from '../../../../pwa/terminal/keys.js';

const plain = { ctrl: false, applicationCursor: false };

describe('barKeySequence', () => {
  it('sends Esc and Tab as a keyboard does', () => {
    expect(barKeySequence('esc', plain)).toBe('\x1b');
    expect(barKeySequence('esc', { ctrl: true, applicationCursor: true })).toBe('\x1b');
    expect(barKeySequence('tab', plain)).toBe('\t');
    expect(barKeySequence('tab', { ...plain, ctrl: true })).toBe('\x1b[9;5u');
  });

  it('follows the cursor-key mode the application set, and adds the Ctrl modifier', () => {
    const arrows: [BarKey, string][] = [
      ['up', 'A'],
      ['down', 'B'],
      ['right', 'C'],
      ['left', 'D'],
    ];
    for (const [key, final] of arrows) {
      expect(barKeySequence(key, plain)).toBe(`\x1b[${final}`);
      expect(barKeySequence(key, { ctrl: false, applicationCursor: true })).toBe(`\x1bO${final}`);
      expect(barKeySequence(key, { ctrl: true, applicationCursor: false })).toBe(`\x1b[1;5${final}`);
      expect(barKeySequence(key, { ctrl: true, applicationCursor: true })).toBe(`\x1b[1;5${final}`);
    }
  });
});

describe('withCtrl', () => {
  it('turns letters of either case into their control codes', () => {
    expect(withCtrl('c')).toBe('\x03');
    expect(withCtrl('C')).toBe('\x03');
    expect(withCtrl('a')).toBe('\x01');
    expect(withCtrl('z')).toBe('\x1a');
  });

  it('maps the punctuation a terminal gives a control code', () => {
    expect(withCtrl('@')).toBe('\x00');
    expect(withCtrl(' ')).toBe('\x00');
    expect(withCtrl('[')).toBe('\x1b');
    expect(withCtrl('\\')).toBe('\x1c');
    expect(withCtrl(']')).toBe('\x1d');
    expect(withCtrl('^')).toBe('\x1e');
    expect(withCtrl('_')).toBe('\x1f');
    expect(withCtrl('?')).toBe('\x7f');
  });

  it('leaves other keys and pasted text as they are', () => {
    expect(withCtrl('1')).toBe('1');
    expect(withCtrl('é')).toBe('é');
    expect(withCtrl('ls')).toBe('ls');
    expect(withCtrl('')).toBe('');
  });
});
