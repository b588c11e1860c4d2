import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { LogFile, type LogFileLimits } from './log-file.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Resolves once every line logged so far is in the log file. */
  flush(): Promise<void>;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * One line per event, to stderr and to the data dir's log file. Secrets never go through
 * here: callers log ids, never tokens or credentials.
 */
export function createLogger(options: { file?: string; level?: LogLevel; stderr?: boolean; fileLimits?: LogFileLimits }): Logger {
  const min = ORDER[options.level ?? 'info'];
  const file = options.file
    ? new LogFile(
        options.file,
        (count) =>
          `${new Date().toISOString()} warn  log lines dropped: they came faster than the disk took them ${JSON.stringify({ dropped: count })}\n`,
        options.fileLimits,
      )
    : null;
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    // Messages and fields quote paths, names and tmux output; the log is read in a terminal.
    const extra = fields && Object.keys(fields).length > 0 ? ` ${visibleJson(fields)}` : '';
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${visibleText(message)}${extra}\n`;
    if (options.stderr !== false) process.stderr.write(line);
    file?.write(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    flush: () => file?.flush() ?? Promise.resolve(),
  };
}
