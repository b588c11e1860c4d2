/**
 * The commands the agent and the CLI advise, pasted into a shell as printed: from another
 * directory, for an agent whose data dir is not the default and has a space and a quote in it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';

const shells: ChildProcess[] = [];

afterAll(async () => {
  for (const child of shells) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await cleanupAgents();
});

/** `sh -c line` in `cwd`, as a person pasting the line would run it; `exec` so the pid is the command's. */
function paste(line: string, cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => { stdout: string; stderr: string } } {
  const child = spawn('/bin/sh', ['-c', `exec ${line}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  shells.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return { child, output: () => ({ stdout, stderr }) };
}

async function pasteAndWait(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, output } = paste(line, cwd, env);
  const cut = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(cut);
  return { code, ...output() };
}

describe('advised commands', () => {
  it('run as printed by the banner and by the error of a stopped agent, from another directory', async () => {
    const env = newTestEnvironment();
    const dataDir = join(env.root, "my data 'dir'");
    const elsewhere = join(env.root, 'elsewhere');
    mkdirSync(elsewhere);
    const shellEnv = agentEnv(env);
    // No --tmux-socket: the data dir names its tmux server, so the data dir alone reaches the same agent.
    const agent = await startAgent({ reuse: { ...env, dataDir }, dataDirSocket: true });
    const tab = await runCli(['tab', 'new', elsewhere, '--data-dir', dataDir], shellEnv);
    expect(tab.code).toBe(0);

    const advised = /^Another device later: (.+)$/m.exec(agent.stdout())?.[1] ?? '';
    // Never a package name for npx to fetch; always the data dir this agent runs with.
    expect(advised).not.toMatch(/\bnpx\b/);
    expect(advised).toMatch(/ pair --data-dir /);

    const paired = await pasteAndWait(advised, elsewhere, shellEnv);
    expect(paired.stderr).toBe('');
    expect(paired.code).toBe(0);
    expect(paired.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#pair=/);
    expect(paired.stdout).toContain(`Another device later: ${advised}\n`);

    // The agent stopped: the same line says so, and how to start it, which starts this agent again.
    expect(await agent.stop()).toBe(0);
    const refused = await pasteAndWait(advised, elsewhere, shellEnv);
    expect(refused.code).toBe(3);
    const start = /start one with: (.+)\)$/m.exec(refused.stderr)?.[1] ?? '';
    expect(start).toMatch(/ start --data-dir /);
    // Another port only: 8420 may be taken on the machine running the tests.
    const again = paste(`${start} --port 0`, elsewhere, shellEnv);
    await expect.poll(() => again.output().stdout, { timeout: 20_000 }).toContain(`Data: ${dataDir}`);
    expect(again.output().stdout).toContain(`Another device later: ${advised}\n`);
    // The same agent: the tab made before it stopped is there, its shell still running.
    const tabs = JSON.parse((await runCli(['tabs', '--json', '--data-dir', dataDir], shellEnv)).stdout) as { id: string; alive: boolean }[];
    expect(tabs).toContainEqual(expect.objectContaining({ id: tab.stdout.trim(), alive: true }));
    again.child.kill('SIGTERM');
    const [code] = (await once(again.child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});
