/**
 * Which hook settings a Claude tab gets, by the version of the claude that will run: a
 * stand-in claude answers `--version` as the real one does and records how it was started.
 */
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabView } from '../../protocol/api.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { api, claim, firstWorkspaceId, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';

const env = newTestEnvironment();
const standIn = join(env.root, 'claude');
let agent: AgentHandle;
let session: Session;

/** A claude that reports `version`, and otherwise writes its arguments to argv-<tab> and waits. */
function writeStandIn(version: string): void {
  writeFileSync(
    standIn,
    `#!/bin/sh
if [ "$1" = --version ]; then echo '${version} (Claude Code)'; exit 0; fi
printf '%s\\n' "$@" > '${env.root}/argv-'"$POCKETMUX_TAB"
exec sleep 600
`,
    { mode: 0o755 },
  );
}

async function startedWith(): Promise<string[]> {
  const created = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: await firstWorkspaceId(session), kind: 'claude' });
  expect(created.status).toBe(201);
  const file = join(env.root, `argv-${created.body.id}`);
  return eventually(() => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1) : null), 10_000, 'the stand-in claude started');
}

beforeAll(async () => {
  writeStandIn('1.0.0');
  agent = await startAgent({ reuse: env, args: ['--claude-bin', standIn] });
  session = await claim(agent);
});
afterAll(cleanupAgents);

describe('hook settings by claude version', () => {
  it('starts a claude older than HTTP hooks with the command-only settings', async () => {
    const argv = await startedWith();
    const settingsFile = join(env.dataDir, 'hooks', 'settings-command.json');
    expect(argv).toEqual(['--settings', settingsFile]);
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, { hooks: { type: string }[] }[]> };
    expect(Object.keys(settings.hooks).length).toBeGreaterThan(0);
    for (const [event, entries] of Object.entries(settings.hooks)) {
      for (const entry of entries) for (const hook of entry.hooks) expect(hook.type, event).toBe('command');
    }
    expect(readFileSync(settingsFile, 'utf8')).not.toMatch(/"type":\s*"http"/);
  });

  it('asks again once the binary changed, and gives a claude that runs HTTP hooks the HTTP settings', async () => {
    writeStandIn('2.1.332');
    // An update is a new file: a modification time the cache has not seen.
    utimesSync(standIn, new Date(), new Date(Date.now() + 60_000));
    expect(await startedWith()).toEqual(['--settings', join(env.dataDir, 'hooks', 'settings.json')]);
    expect(agent.stderr()).toMatch(/claude version .*"version":"1\.0\.0","httpHooks":false/);
    expect(agent.stderr()).toMatch(/claude version .*"version":"2\.1\.332","httpHooks":true/);
  });
});
