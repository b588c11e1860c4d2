/**
 * The agent's own tmux configuration. The browser draws all chrome, so tmux shows none;
 * titles carry the pane's command and path so clients can label tabs live.
 */
export function tmuxConfig(opts: { defaultShell: string }): string {
  const lines = [
    '# Written by pocketmux at every start; edits here are overwritten.',
    'set -g prefix None',
    'set -g prefix2 None',
    'set -g status off',
    'set -g mouse on',
    'set -g set-titles on',
    "set -g set-titles-string '#{pane_current_command}|#{pane_current_path}'",
    'set -g focus-events on',
    'set -g history-limit 50000',
    'set -g escape-time 0',
    'set -g default-terminal tmux-256color',
    "set -as terminal-features 'xterm-256color:RGB:clipboard:focus:title'",
    'set -g window-size latest',
    'set -g destroy-unattached off',
    'set -g exit-unattached off',
    'set -g exit-empty on',
    'set -g allow-rename off',
    `set -g default-shell ${quote(opts.defaultShell)}`,
    '',
  ];
  return lines.join('\n');
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
