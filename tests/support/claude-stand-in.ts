import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stand-in for claude in a pane, where a test needs a claude running there but not the real
 * CLI: a copy of cat named `claude` (the agent recognises a claude by its command name). Typed
 * text comes back from it once a line is ended.
 */
export function claudeStandIn(root: string): string {
  const dir = join(root, 'fake-claude');
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'claude');
  copyFileSync('/bin/cat', bin);
  chmodSync(bin, 0o755);
  return bin;
}
