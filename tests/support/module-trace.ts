/**
 * What a pocketmux process really loads: its node runs with the `module-trace.mjs` preload,
 * which writes the URL of every module it loads to a file of the test's own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PRELOAD = join(import.meta.dirname, 'module-trace.mjs');

export interface ModuleTrace {
  /** The environment that makes a process write its trace (add it to the process's own). */
  env: Record<string, string>;
  /** Every module URL the process loaded, in order; empty until it loaded any. */
  modules(): string[];
}

export function moduleTrace(file: string): ModuleTrace {
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(PRELOAD).href}`, POCKETMUX_MODULE_TRACE: file },
    modules: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []),
  };
}

/** The part of pocketmux that runs the agent, which no CLI command but `start` may load. */
export const AGENT_ONLY = {
  express: '/node_modules/express/',
  'web-push': '/node_modules/web-push/',
  'node-pty': '/node_modules/node-pty/',
  "the agent's http/": '/dist/agent/http/',
  'the agent itself (agent.js)': '/dist/agent/agent.js',
} as const;

/** Which of `parts` (name → a piece of a module URL) the traced modules include. */
export function loadedParts(modules: string[], parts: Readonly<Record<string, string>>): string[] {
  return Object.entries(parts)
    .filter(([, piece]) => modules.some((url) => url.includes(piece)))
    .map(([name]) => name);
}
