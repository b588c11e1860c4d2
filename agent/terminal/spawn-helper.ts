import { accessSync, chmodSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * On macOS node-pty starts every terminal through its own `spawn-helper` binary, and node-pty
 * 1.1.0 publishes that binary without its execute bit (microsoft/node-pty#850): npm keeps the
 * mode of a global install's or npx's unpacked files, and every terminal then fails with an
 * unexplained "posix_spawnp failed". Linux forks directly and has no helper. Before the first
 * terminal, the helper node-pty will load is made executable for its owner; where that is not
 * allowed (a read-only install) the error is left to say so when a terminal opens.
 *
 * Returns the helpers it made executable.
 */
export function ensureSpawnHelperExecutable(platform: NodeJS.Platform = process.platform, arch: string = process.arch, ptyDir: string | null = nodePtyDir()): string[] {
  if (platform !== 'darwin' || ptyDir === null) return [];
  const fixed: string[] = [];
  for (const helper of [join(ptyDir, 'build', 'Release', 'spawn-helper'), join(ptyDir, 'prebuilds', `${platform}-${arch}`, 'spawn-helper')]) {
    if (!existsSync(helper)) continue;
    try {
      accessSync(helper, constants.X_OK);
    } catch {
      try {
        chmodSync(helper, statSync(helper).mode | 0o100);
        fixed.push(helper);
      } catch {
        // Not ours to change: the terminal's own error will show.
      }
    }
  }
  return fixed;
}

function nodePtyDir(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('node-pty/package.json'));
  } catch {
    return null;
  }
}
