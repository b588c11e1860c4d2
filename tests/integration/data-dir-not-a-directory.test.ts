/**
 * A data dir that is not a directory (a file, a symbolic link to one, a path under a file) is
 * named as such by every command that takes --data-dir, with exit code 2: no advice to chmod
 * it, no stack trace, nothing written.
 */
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEnv, cleanupAgents, newTestEnvironment, runCli } from '../support/agent.js';

afterAll(cleanupAgents);

const EVERY_COMMAND = [
  ['start', '--port', '0'],
  ['pair'],
  ['tabs'],
  ['devices'],
  ['approvals'],
  ['tab', 'close', 'tb-x'],
  ['doctor'],
  ['hooks', 'status'],
  ['hooks', 'install'],
  ['hooks', 'uninstall'],
  ['service', 'install'],
  ['service', 'status'],
  ['service', 'uninstall'],
];
/** One command for each way the CLI reads --data-dir: start's, a remote command's, doctor's, hooks', service's. */
const ONE_OF_EACH = [['start', '--port', '0'], ['pair'], ['doctor'], ['hooks', 'status'], ['service', 'status']];

/** Runs each command in turn, a few at once: a loaded machine starts node slowly. */
async function runAll(commands: string[][], dataDir: string, env: NodeJS.ProcessEnv): Promise<Awaited<ReturnType<typeof runCli>>[]> {
  const results: Awaited<ReturnType<typeof runCli>>[] = [];
  for (let i = 0; i < commands.length; i += 3) {
    const batch = commands.slice(i, i + 3);
    results.push(...(await Promise.all(batch.map((args) => runCli([...args, '--data-dir', dataDir], env, 60_000)))));
  }
  return results;
}

function setUp(): { env: ReturnType<typeof newTestEnvironment>; cases: { what: string; dataDir: string; says: RegExp; commands: string[][] }[] } {
  const env = newTestEnvironment();
  const file = join(env.root, 'a-file');
  writeFileSync(file, 'not a directory\n');
  // What a person does after being told to chmod 700 it: then mkdir failed with EEXIST.
  const privateFile = join(env.root, 'a-private-file');
  writeFileSync(privateFile, '');
  chmodSync(privateFile, 0o700);
  const link = join(env.root, 'a-link');
  symlinkSync(file, link);
  return {
    env,
    cases: [
      { what: 'a file of mode 700', dataDir: privateFile, says: /is a file, not a directory/, commands: EVERY_COMMAND },
      { what: 'a file', dataDir: file, says: /is a file, not a directory/, commands: ONE_OF_EACH },
      { what: 'a symbolic link to a file', dataDir: link, says: /is a file \(a symbolic link to one\), not a directory/, commands: ONE_OF_EACH },
      { what: 'a path under a file', dataDir: join(file, 'data'), says: new RegExp(`cannot be made: ${file} is a file, not a directory`), commands: ONE_OF_EACH },
    ],
  };
}

describe('a data dir that is not a directory', () => {
  const { env, cases } = setUp();
  for (const c of cases) {
    it(`is refused by the commands when it is ${c.what}`, { timeout: 300_000 }, async () => {
      const results = await runAll(c.commands, c.dataDir, agentEnv(env));
      for (const [i, result] of results.entries()) {
        const shown = `${c.commands[i]?.join(' ')}: ${result.code} ${result.stderr}`;
        expect(result.code, shown).toBe(2);
        expect(result.stderr, shown).toMatch(c.says);
        expect(result.stderr, shown).toContain(c.dataDir);
        expect(result.stderr, shown).not.toMatch(/chmod|EEXIST|ENOTDIR|\n\s+at /);
      }
      // Nothing was made on the way: no service file, no Claude settings.
      expect(readdirSync(env.home)).toEqual([]);
    });
  }

  it.skipIf(process.getuid?.() === 0)('is refused when it is a directory the person may not use', async () => {
    const locked = join(env.root, 'locked');
    mkdirSync(locked, { mode: 0o000 });
    const result = await runCli(['start', '--port', '0', '--data-dir', join(locked, 'data')], agentEnv(env), 20_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('permission denied');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
