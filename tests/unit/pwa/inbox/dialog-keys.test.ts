import { describe, expect, it } from 'vitest';
import { dialogLayout, isBareKey, keyCap } from '../../../../pwa/inbox/dialog-keys.js';

/** The keys the agent offers for a screen it could not read (agent/approvals/screen-reader.ts). */
const UNREAD_SCREEN = [
  { key: 'Enter', label: 'Enter' },
  { key: 'Esc', label: 'Esc' },
  { key: 'Up', label: '↑' },
  { key: 'Down', label: '↓' },
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => ({ key: digit, label: digit })),
];

describe("a dialog's options on its card", () => {
  it('puts a select list in order with no key: its places are not digits on the screen', () => {
    const layout = dialogLayout([
      { key: '1', label: 'Yes, set auto mode as my default permission mode' },
      { key: '2', label: 'No, keep manual mode' },
    ]);
    expect(layout.pad).toEqual([]);
    expect(layout.choices.map((c) => [c.label, c.cap])).toEqual([
      ['Yes, set auto mode as my default permission mode', null],
      ['No, keep manual mode', null],
    ]);
    expect(layout.choices.map((c) => c.key)).toEqual(['1', '2']);
  });

  it("shows a notice's footer keys as key caps before what they do", () => {
    const layout = dialogLayout([
      { key: 'Enter', label: 'Stay in auto mode' },
      { key: 'Shift+Tab', label: 'Leave for accept edits mode and stop' },
      { key: 'Esc', label: 'Cancel' },
    ]);
    expect(layout.pad).toEqual([]);
    expect(layout.choices).toEqual([
      { key: 'Enter', label: 'Stay in auto mode', cap: 'Enter', spoken: 'Enter' },
      { key: 'Shift+Tab', label: 'Leave for accept edits mode and stop', cap: '⇧ Tab', spoken: 'Shift Tab' },
      { key: 'Esc', label: 'Cancel', cap: 'Esc', spoken: 'Escape' },
    ]);
  });

  it("keeps a select list's Esc footer as a choice with its cap", () => {
    const layout = dialogLayout([
      { key: '1', label: 'No, exit' },
      { key: '2', label: 'Yes, I trust this folder' },
      { key: 'Esc', label: 'Cancel' },
    ]);
    expect(layout.choices.map((c) => c.cap)).toEqual([null, null, 'Esc']);
  });

  it("lays an unread screen's keys out as a pad, each said once", () => {
    const layout = dialogLayout(UNREAD_SCREEN);
    expect(layout.choices).toEqual([]);
    expect(layout.pad.map((k) => k.label)).toEqual(['Enter', 'Esc', '↑', '↓', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(layout.pad.map((k) => k.key)).toEqual(UNREAD_SCREEN.map((o) => o.key));
    expect(layout.pad.slice(0, 4).map((k) => k.spoken)).toEqual(['Enter', 'Escape', 'Up arrow', 'Down arrow']);
    expect(layout.pad[4]?.spoken).toBe('1');
  });

  it('knows a bare key from an option with words of its own', () => {
    expect(isBareKey({ key: 'Up', label: '↑' })).toBe(true);
    expect(isBareKey({ key: '7', label: '7' })).toBe(true);
    expect(isBareKey({ key: 'Esc', label: 'Cancel' })).toBe(false);
    expect(isBareKey({ key: '1', label: 'Yes' })).toBe(false);
  });

  it('has caps for the named keys only', () => {
    expect(['Enter', 'Esc', 'Tab', 'Shift+Tab', 'Up', 'Down'].map(keyCap)).toEqual(['Enter', 'Esc', 'Tab', '⇧ Tab', '↑', '↓']);
    expect(keyCap('1')).toBeNull();
    expect(keyCap('toString')).toBeNull();
  });
});
