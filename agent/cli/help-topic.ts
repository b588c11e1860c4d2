/**
 * `pocketmux help COMMAND` (and `pocketmux COMMAND --help`): the part of the help about one
 * command, cut from the whole text so the two never disagree.
 */

/** Commands that take the start options, whose help shows them too. */
const TAKES_START_OPTIONS: ReadonlySet<string> = new Set(['start', 'service', 'doctor']);

/** Commands that talk to the running agent, which the note after their usage lines is about. */
const AGENT_CLIENT_COMMANDS: ReadonlySet<string> = new Set(['pair', 'devices', 'tabs', 'tab', 'approvals', 'approve', 'deny', 'answer', 'changes']);

/** The indented, parenthesised note on exit codes that follows the agent's client commands. */
const NOTE = Symbol('note');

/** The command a usage line is about: `  pocketmux [start] [options]` → `start`. */
function commandOf(line: string): string | null {
  const m = /^ {2}pocketmux \[?([a-z]+)/.exec(line);
  return m ? (m[1] as string) : null;
}

/**
 * The usage lines of `command` (each with the lines that continue it, indented deeper), and
 * the options section when it takes the start options; null when the help names no such command.
 */
export function helpTopic(help: string, command: string): string | null {
  const lines = help.split('\n');
  const usageAt = lines.indexOf('Usage:');
  const optionsAt = lines.findIndex((l) => l.startsWith('Options'));
  if (usageAt < 0 || optionsAt < 0) return null;
  const picked: string[] = [];
  let current: string | typeof NOTE | null = null;
  for (const line of lines.slice(usageAt + 1, optionsAt)) {
    const named = commandOf(line);
    if (named !== null) current = named;
    else if (/^ {6}\(/.test(line)) current = NOTE;
    else if (!line.startsWith('   ')) current = null;
    if (current === command || (current === NOTE && AGENT_CLIENT_COMMANDS.has(command))) picked.push(line);
  }
  if (!picked.some((line) => commandOf(line) === command)) return null;
  const options = TAKES_START_OPTIONS.has(command) ? `\n${lines.slice(optionsAt).join('\n').trimEnd()}\n` : '';
  return `Usage:\n${picked.join('\n')}\n${options}`;
}
