import { shellQuote as quote } from '../util/shell.js';
import { OWNER_OPTION } from './commands.js';

/**
 * Lines of history tmux keeps per pane; a capture of a pane's history (find in the browser)
 * reads at most this many, from the agent's server or the person's own.
 */
export const HISTORY_LIMIT_LINES = 50_000;

/**
 * The agent's own tmux configuration. The browser draws all chrome, so tmux shows none;
 * titles carry the pane's command and path so clients can label tabs live.
 */
export function tmuxConfig(opts: { defaultShell: string; owner?: string }): string {
  const lines = [
    '# Written by pocketmux at every start; edits here are overwritten.',
    'set -g prefix None',
    'set -g prefix2 None',
    'set -g status off',
    'set -g mouse on',
    'set -g set-titles on',
    `set -g set-titles-string '${printable('pane_current_command')}|${printable('pane_current_path')}'`,
    'set -g focus-events on',
    `set -g history-limit ${HISTORY_LIMIT_LINES}`,
    'set -g escape-time 0',
    'set -g default-terminal tmux-256color',
    "set -as terminal-features 'xterm-256color:RGB:clipboard:focus:title'",
    'set -g window-size latest',
    'set -g destroy-unattached off',
    'set -g exit-unattached off',
    'set -g exit-empty on',
    'set -g allow-rename off',
    `set -g default-shell ${quote(opts.defaultShell)}`,
    // The data dir whose server this is, from its first moment: see OWNER_OPTION.
    ...(opts.owner === undefined ? [] : [`set -g ${OWNER_OPTION} ${quote(opts.owner)}`]),
    '',
  ];
  return lines.join('\n');
}

/**
 * A format that shows a variable with its control characters as `?`. tmux puts the title
 * inside an escape sequence to the browser's terminal; a directory named with a BEL and
 * `ESC[2J` would otherwise end that sequence and run its own. C0 and DEL are matched as a
 * byte range; C1 (U+0080–U+009F, which xterm.js also obeys) as their UTF-8 pairs, since a
 * range of them is not a valid pattern in every locale.
 */
export function printable(variable: string): string {
  const c1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)).join('|');
  return `#{s/[\x01-\x1f\x7f]/?/:#{s/(${c1})/?/:${variable}}}`;
}

