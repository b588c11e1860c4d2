/** `pocketmux help`, `help COMMAND` and `COMMAND --help`, as the built CLI prints them. */
import { afterAll, describe, expect, it } from 'vitest';
import { agentEnv, cleanupAgents, newTestEnvironment, runCli } from '../support/agent.js';

const env = agentEnv(newTestEnvironment());
afterAll(cleanupAgents);
const help = (...args: string[]) => runCli(args, env);

describe('pocketmux help', () => {
  it('prints the whole help, as --help does', async () => {
    const all = await help('help');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('pocketmux: Claude Code sessions in your pocket');
    expect(all.stdout).toBe((await help('--help')).stdout);
  });

  it('prints the part about one command, with the start options where it takes them', async () => {
    const tab = await help('help', 'tab');
    expect(tab.code).toBe(0);
    expect(tab.stdout).toMatch(/^ {2}pocketmux tab new /m);
    expect(tab.stdout).toMatch(/^ {2}pocketmux tab status ID \[--wait-for STATE\]/m);
    expect(tab.stdout).toMatch(/exit 3 when no agent runs/);
    expect(tab.stdout).not.toMatch(/pocketmux (tabs|service|approve|doctor)\b/);
    expect(tab.stdout).not.toContain('--tls-cert');
    expect((await help('tab', '--help')).stdout).toBe(tab.stdout);

    const start = await help('help', 'start');
    expect(start.stdout).toMatch(/^ {2}pocketmux \[start\] \[options\]/m);
    expect(start.stdout).toMatch(/^ {2}--data-dir <dir>/m);

    const hooks = await help('help', 'hooks');
    expect(hooks.stdout).toMatch(/pocketmux hooks install[\s\S]+pocketmux hooks uninstall/);
    expect(hooks.stdout).not.toMatch(/exit 3 when no agent runs/);
  });

  it('refuses a command there is none of, showing the whole help', async () => {
    const none = await help('help', 'frobnicate');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^pocketmux: no command "frobnicate"\n/);
    expect(none.stderr).toContain('Usage:');
    expect(none.stdout).toBe('');
  });
});
