import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * One line per event, to stderr and to the data dir's log file. Secrets never go through
 * here: callers log ids, never tokens or credentials.
 */
export function createLogger(options: { file?: string; level?: LogLevel; stderr?: boolean }): Logger {
  const min = ORDER[options.level ?? 'info'];
  if (options.file) mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${message}${extra}\n`;
    if (options.stderr !== false) process.stderr.write(line);
    if (options.file) {
      try {
        appendFileSync(options.file, line, { mode: 0o600 });
      } catch {
        // A full disk must not take the agent down; stderr still has the line.
      }
    }
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
