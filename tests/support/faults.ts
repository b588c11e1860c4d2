/**
 * Helpers for the fault suite: a file-system fault armed in the agent's own process (through
 * the `fs-fault.mjs` preload), a check that every file of a data dir is whole, and a stand-in
 * claude for Claude tabs whose hooks a test sends itself.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentHandle } from './agent.js';
import { eventually } from './eventually.js';
import { claudeStandIn } from './claude-stand-in.js';

const PRELOAD = join(import.meta.dirname, 'fs-fault.mjs');

export interface FaultSwitch {
  /** The environment that loads the preload into the agent's node, unarmed. */
  env: Record<string, string>;
  /** From the next write of `file` (a name in the data dir) on: killed in the middle, or ENOSPC. */
  arm(file: string, action: 'kill' | 'enospc'): void;
  disarm(): void;
  /** Whether a `kill` fault fired (the process killed itself at the write). */
  fired(): boolean;
}

export function faultSwitch(root: string): FaultSwitch {
  const armPath = join(root, 'fault-arm.json');
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(PRELOAD).href}`, POCKETMUX_FAULT_ARM: armPath },
    arm: (file, action) => writeFileSync(armPath, JSON.stringify({ file, action })),
    disarm: () => {
      rmSync(armPath, { force: true });
      rmSync(`${armPath}.fired`, { force: true });
    },
    fired: () => existsSync(`${armPath}.fired`),
  };
}

export interface DataDirCheck {
  /** JSON files that do not parse. */
  unparsable: string[];
  /** Files set aside as corrupt (`<name>.corrupt-<time>`). */
  corrupt: string[];
  /** Temp files of writes that never finished. */
  temp: string[];
}

/** Every file under the data dir: which JSON ones do not parse, what was set aside, what is left over. */
/** `livePid`: the running agent's own temp files are writes under way, not leftovers. */
export function checkDataDir(dataDir: string, livePid?: number): DataDirCheck {
  const out: DataDirCheck = { unparsable: [], corrupt: [], temp: [] };
  const walk = (dir: string) => {
    // The entry's own type, read with the listing: a running agent's temp file may be renamed
    // into place between the listing and a later look at it.
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = entry.name;
      const path = join(dir, name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      if (name.includes('.corrupt-')) out.corrupt.push(path);
      if (name.endsWith('.tmp') && !(livePid !== undefined && name.includes(`.${livePid}.`))) out.temp.push(path);
      if (name.endsWith('.json')) {
        try {
          JSON.parse(readFileSync(path, 'utf8'));
        } catch {
          out.unparsable.push(path);
        }
      }
    }
  };
  walk(dataDir);
  return out;
}

/** A JSON file of the data dir as it is on disk now. */
export function readDataFile<T = Record<string, unknown>>(agent: Pick<AgentHandle, 'dataDir'>, name: string): T {
  return JSON.parse(readFileSync(join(agent.dataDir, name), 'utf8')) as T;
}

/** Waits until a data file on disk satisfies `check`: what the agent has written, not what it holds. */
export function onDisk<T = Record<string, unknown>>(agent: Pick<AgentHandle, 'dataDir'>, name: string, check: (file: T) => unknown, what: string): Promise<T> {
  return eventually(
    () => {
      const file = readDataFile<T>(agent, name);
      return check(file) ? file : null;
    },
    20_000,
    `${name} to hold ${what}`,
  );
}

/**
 * A claude for the agent to start in a Claude tab: it answers `--version` as the real one
 * does, then runs the stand-in (a `claude` that echoes lines), so the tab's pane runs a
 * process named claude whose hooks the test sends through the agent's hook script.
 */
export function standInClaudeBin(root: string): string {
  const bin = join(root, 'claude-bin');
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\nexec '${claudeStandIn(root)}'\n`, { mode: 0o755 });
  return bin;
}

