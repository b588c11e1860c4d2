/**
 * What the settings say about Claude sessions started outside pocketmux: whether they report
 * here, from `GET /api/hooks`. Pure, so the words are tested apart from the page.
 */
import { UserHooksViewSchema, type UserHooksView } from '../../protocol/outside.js';
import { visibleText } from '../../protocol/safe-text.js';
import { shortPath } from '../core/labels.js';
import { safeParse } from '../../protocol/safe-parse.js';

/** A run of plain text, or a command to set in code type. */
export type TextPart = { text: string } | { code: string };

export interface UserHooksMessage {
  /** `on`: every Claude reports; `off`: only the tabs' (or some); `unknown`: could not tell. */
  tone: 'on' | 'off' | 'unknown';
  parts: TextPart[];
}

const cannotTell = 'Cannot tell whether Claude started outside pocketmux reports here';

/** Paths shown whole, but with the home directory as `~` and odd characters spelled out. */
function fullPath(path: string): string {
  return shortPath(path, Number.POSITIVE_INFINITY);
}

export function userHooksMessage(view: UserHooksView): UserHooksMessage {
  const settings = fullPath(view.settingsPath);
  const install: TextPart[] = [
    { text: 'To see every Claude on this machine, run ' },
    { code: visibleText(view.installCommand) },
    { text: ' on it.' },
  ];
  switch (view.state) {
    case 'installed':
      return { tone: 'on', parts: [{ text: `Claude started anywhere on this machine reports here (hooks installed in ${settings}).` }] };
    case 'some':
      return {
        tone: 'off',
        parts: [{ text: `Only Claude tabs started here report in full: just part of pocketmux's hooks are installed in ${settings}. ` }, ...install],
      };
    case 'none':
      return { tone: 'off', parts: [{ text: 'Only Claude tabs started here report. ' }, ...install] };
    case 'unknown':
      return { tone: 'unknown', parts: [{ text: `${cannotTell}: ${visibleText(view.detail ?? 'no reason given')}` }] };
  }
}

/** The agent's answer read as a `UserHooksView`; one that does not parse (a newer agent) cannot tell. */
export function parseUserHooks(body: unknown): UserHooksMessage {
  const parsed = safeParse(UserHooksViewSchema, body);
  if (parsed.success) return userHooksMessage(parsed.data);
  return { tone: 'unknown', parts: [{ text: `${cannotTell}: the agent answered in a form this app does not know.` }] };
}

/** A failed request, said the same way. */
export function userHooksError(message: string): UserHooksMessage {
  return { tone: 'unknown', parts: [{ text: `${cannotTell}: ${visibleText(message)}` }] };
}

/** The message as plain text, as a screen reader or a test reads it. */
export function plainText(message: UserHooksMessage): string {
  return message.parts.map((p) => ('code' in p ? p.code : p.text)).join('');
}
