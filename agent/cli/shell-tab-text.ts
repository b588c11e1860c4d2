/**
 * `pocketmux tab status` of a shell tab: what is known of it, since it has no Claude state
 * unless a claude started in it reports (through `pocketmux hooks install`).
 */
import { basename } from 'node:path';
import { visibleText } from '../../protocol/safe-text.js';
import type { TabRow } from './remote.js';

/** Shells a pane shows as its current command while it waits at the prompt. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'ash', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'tcsh', 'csh', 'nu', 'xonsh', 'elvish', 'pwsh']);

/** Whether a pane's current command is its shell, at the prompt (a login shell shows as `-bash`). */
export function isShellCommand(command: string, loginShell: string | undefined): boolean {
  const name = command.replace(/^-/, '');
  return SHELLS.has(name) || (loginShell !== undefined && name === basename(loginShell));
}

/** What runs in the tab, from its pane's title (the foreground command), as one phrase. */
export function shellTabActivity(row: Pick<TabRow, 'alive' | 'title'>, loginShell: string | undefined): string {
  if (!row.alive) return 'its tmux session is gone';
  if (row.title === null || row.title === '') return 'running, what in it is not known yet';
  return isShellCommand(row.title, loginShell) ? `at the prompt of ${row.title}` : `running ${row.title}`;
}

/** Lines of `key: value`, the first being `shell: <what runs>`; every value shown escaped. */
export function shellTabText(row: TabRow, loginShell: string | undefined): string {
  return [`shell: ${shellTabActivity(row, loginShell)}`, `name: ${row.name ?? '-'}`, `workspace: ${row.workspace}`, `directory: ${row.cwd}`]
    .map((line) => `${visibleText(line)}\n`)
    .join('');
}
