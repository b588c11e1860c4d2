import { join, normalize } from 'node:path';
import { visibleText } from '../../protocol/safe-text.js';
import { ServiceError, type ServiceSpec, serviceCommand } from './spec.js';

/** The systemd user unit's name. */
export const UNIT_NAME = 'pocketmux.service';

/** The first line of every unit pocketmux writes: uninstall removes only a file that has it. */
export const UNIT_MARKER = '# Written by `pocketmux service install`; `pocketmux service uninstall` removes it.';

/** Where the user unit goes: $XDG_CONFIG_HOME/systemd/user (when absolute, as the spec says), else ~/.config/systemd/user. */
export function systemdUnitPath(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'systemd', 'user', UNIT_NAME);
}

/**
 * One word of a unit setting, double-quoted. Inside quotes systemd takes C escapes, so `\`
 * and `"` are escaped; it expands `%` specifiers before anything else, quoted or not, so `%`
 * is doubled. In an Exec line's arguments `$` starts a variable, so it is doubled too (`$$`
 * is a literal `$`), but not in the program path, which systemd takes literally.
 * Control characters never get here: `serviceSpec` refuses them.
 */
export function systemdQuote(value: string, dollars: 'escape' | 'literal'): string {
  let out = value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, '%%');
  if (dollars === 'escape') out = out.replace(/\$/g, '$$$$');
  return `"${out}"`;
}

/** `ExecStart=`'s value: the program (literal `$`) and its arguments (`$` doubled), each quoted. */
export function execLine(command: readonly string[]): string {
  return command.map((word, i) => systemdQuote(word, i === 0 ? 'literal' : 'escape')).join(' ');
}

/** `Environment=`'s value: one quoted `NAME=value` (no variable expansion there, so `$` stays). */
export function environmentLine(name: string, value: string): string {
  return systemdQuote(`${name}=${value}`, 'literal');
}

/** How long systemd waits between restarts, and how many failed starts in how long make it give up. */
export const SYSTEMD_RESTART = { restartSec: 10, burst: 5, intervalSec: 300 } as const;

/**
 * The user unit. `KillMode=process`: stopping the service stops the agent alone, and the
 * tmux server it started (in the same cgroup) keeps every session, as SIGTERM does for
 * `pocketmux start`. Output goes to the journal; the agent also writes its own rotated log.
 */
export function systemdUnit(spec: ServiceSpec): string {
  // systemd refuses a program path with quotes or backslashes ("Executable name contains
  // special characters"), however they are escaped; arguments may hold anything.
  if (/["'\\]/.test(spec.node) || normalize(spec.node) !== spec.node) {
    throw new ServiceError(
      `systemd cannot run a program whose path holds a quote or a backslash, or is not normalized: "${visibleText(spec.node)}". ` +
        'Make a symlink to node without them and run pocketmux service install with that node.',
    );
  }
  const lines = [
    UNIT_MARKER,
    '# Install again to change the options; the agent also logs to <data dir>/logs/agent.log.',
    '[Unit]',
    'Description=pocketmux agent: Claude Code sessions in your pocket',
    `StartLimitIntervalSec=${SYSTEMD_RESTART.intervalSec}`,
    `StartLimitBurst=${SYSTEMD_RESTART.burst}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${execLine(serviceCommand(spec))}`,
    ...spec.env.map(([name, value]) => `Environment=${environmentLine(name, value)}`),
    'WorkingDirectory=~',
    'Restart=on-failure',
    `RestartSec=${SYSTEMD_RESTART.restartSec}`,
    'KillMode=process',
    'TimeoutStopSec=30',
    'StandardOutput=journal',
    'StandardError=journal',
    'SyslogIdentifier=pocketmux',
    '',
    '[Install]',
    'WantedBy=default.target',
  ];
  return `${lines.join('\n')}\n`;
}

const C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', s: ' ', '\\': '\\', '"': '"', "'": "'" };

/**
 * Splits a unit setting's value into words by systemd's rules, the inverse of
 * `systemdQuote`: `%%` specifiers first (on the whole line, as systemd does), then words in
 * double or single quotes or none, with C escapes. Other specifiers are refused rather than
 * guessed at.
 */
export function splitUnitWords(line: string): string[] {
  const expanded = line.replace(/%(.?)/g, (_, c: string) => {
    if (c === '%') return '%';
    throw new Error(`unsupported specifier %${c}`);
  });
  const words: string[] = [];
  let i = 0;
  const n = expanded.length;
  while (i < n) {
    while (i < n && /\s/.test(expanded[i] as string)) i++;
    if (i >= n) break;
    let word = '';
    let quote: string | null = null;
    for (; i < n; i++) {
      const c = expanded[i] as string;
      if (quote === null && /\s/.test(c)) break;
      if (c === '\\') {
        const next = expanded[i + 1];
        if (next === undefined) throw new Error('a line ends with a backslash');
        if (next === 'x') {
          word += String.fromCharCode(Number.parseInt(expanded.slice(i + 2, i + 4), 16));
          i += 3;
        } else if (/[0-7]/.test(next)) {
          word += String.fromCharCode(Number.parseInt(expanded.slice(i + 1, i + 4), 8));
          i += 3;
        } else {
          const escaped = C_ESCAPES[next];
          if (escaped === undefined) throw new Error(`unsupported escape \\${next}`);
          word += escaped;
          i += 1;
        }
      } else if (quote !== null && c === quote) {
        quote = null;
      } else if (quote === null && (c === '"' || c === "'")) {
        quote = c;
      } else {
        word += c;
      }
    }
    if (quote !== null) throw new Error('unbalanced quotes');
    words.push(word);
  }
  return words;
}

/** An Exec line's words, with `$$` in the arguments made `$` (the program path is literal). Variables are refused. */
export function splitExecLine(line: string): string[] {
  return splitUnitWords(line).map((word, index) => {
    if (index === 0) return word;
    return word.replace(/\$(.?)/g, (_, c: string) => {
      if (c === '$') return '$';
      throw new Error('an Exec argument uses a variable');
    });
  });
}

/** The values of every `Key=` line in the unit, in order. */
export function unitSettings(unit: string, key: string): string[] {
  const prefix = `${key}=`;
  return unit
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.slice(prefix.length));
}

/** The variables a unit's `Environment=` lines set, in order (a later one wins, as in systemd). */
export function unitEnvironment(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of unitSettings(unit, 'Environment')) {
    for (const word of splitUnitWords(line)) {
      const eq = word.indexOf('=');
      if (eq <= 0) throw new Error(`Environment= word without a name: ${word}`);
      env[word.slice(0, eq)] = word.slice(eq + 1);
    }
  }
  return env;
}

/** The command an installed unit runs, or null when it has none that pocketmux can read. */
export function unitCommand(unit: string): string[] | null {
  const line = unitSettings(unit, 'ExecStart')[0];
  if (line === undefined) return null;
  try {
    return splitExecLine(line);
  } catch {
    return null;
  }
}
