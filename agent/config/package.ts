import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/agent/config/package.js → the repository (or installed package) root. */
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The PWA as vite builds it, served by the agent. */
export const PWA_DIR = join(packageRoot, 'dist', 'pwa');

/** The `pocketmux` command of this installation, as package.json's `bin` names it. */
export const BIN_FILE = join(packageRoot, 'bin', 'pocketmux.js');

export function agentVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
