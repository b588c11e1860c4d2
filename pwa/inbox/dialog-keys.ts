/**
 * How a dialog's options read on its card. The agent names each option by the key that
 * chooses it: a select list's place ('1', '2': no digit is on Claude's screen, the agent moves
 * the cursor), a key from the dialog's footer (Enter, Esc, Shift+Tab), or, for a screen it
 * could not read, the bare keys themselves, whose label is the key.
 */
import type { DialogOption } from '../../protocol/approvals.js';

/** The key caps of the keys Claude's dialogs name, as a keyboard prints them. */
const CAPS: Readonly<Record<string, string>> = {
  Enter: 'Enter',
  Esc: 'Esc',
  Tab: 'Tab',
  'Shift+Tab': '⇧ Tab',
  Up: '↑',
  Down: '↓',
};

/** What a screen reader says for each key cap. */
const SPOKEN: Readonly<Record<string, string>> = {
  Enter: 'Enter',
  Esc: 'Escape',
  Tab: 'Tab',
  'Shift+Tab': 'Shift Tab',
  Up: 'Up arrow',
  Down: 'Down arrow',
};

export interface DialogChoice {
  /** What the decision carries: the option's key. */
  key: string;
  /** The option's words; for a bare key, what its cap shows. */
  label: string;
  /** The key cap shown before the label: a named key's; null for a select list's place. */
  cap: string | null;
  /** The key's name for a screen reader. */
  spoken: string;
}

/** The options as the card lays them out: choices with words of their own, and bare keys for a key pad. */
export interface DialogLayout {
  choices: DialogChoice[];
  pad: DialogChoice[];
}

/** The cap a named key is shown with, or null for a key with none (a digit, a letter). */
export function keyCap(key: string): string | null {
  return Object.hasOwn(CAPS, key) ? (CAPS[key] as string) : null;
}

/** A bare key: its label says no more than the key (an unread screen's "Esc", "↑", "7"). */
export function isBareKey(option: DialogOption): boolean {
  return option.label === option.key || option.label === keyCap(option.key);
}

export function dialogLayout(options: readonly DialogOption[]): DialogLayout {
  const layout: DialogLayout = { choices: [], pad: [] };
  for (const o of options) {
    const cap = keyCap(o.key);
    const spoken = Object.hasOwn(SPOKEN, o.key) ? (SPOKEN[o.key] as string) : o.key;
    if (isBareKey(o)) layout.pad.push({ key: o.key, label: cap ?? o.label, cap, spoken });
    else layout.choices.push({ key: o.key, label: o.label, cap, spoken });
  }
  return layout;
}
