import { join } from 'node:path';

/** Every file the agent keeps in its data dir, named in one place. */
export function dataPaths(dataDir: string) {
  return {
    dataDir,
    lock: join(dataDir, 'agent.lock'),
    /** The port the running agent listens on, for the CLI and the hook script. */
    port: join(dataDir, 'port'),
    /** The loopback twin's port (with TLS), kept across restarts for the Claudes started before one. */
    localPort: join(dataDir, 'local-port'),
    identity: join(dataDir, 'agent.json'),
    devices: join(dataDir, 'devices.json'),
    /** Other agents this one linked, each with the credential and key it holds there. */
    machines: join(dataDir, 'machines.json'),
    /** What the linked machines' sessions asked that was pushed already: not pushed twice across restarts. */
    machinePushes: join(dataDir, 'machine-pushes.json'),
    workspaces: join(dataDir, 'workspaces.json'),
    tmuxConf: join(dataDir, 'tmux.conf'),
    hookToken: join(dataDir, 'hook-token'),
    /** The token as the header line curl sends it with (`-H @file`): on no command line. */
    hookTokenHeader: join(dataDir, 'hooks', 'token-header'),
    /** The script every command hook runs (Claude's where HTTP is not allowed, Codex's all). */
    hookScript: join(dataDir, 'hooks', 'hook.sh'),
    /** Claude's HTTP hooks (`--settings`), whose headers carry the token. */
    hookSettings: join(dataDir, 'hooks', 'settings.json'),
    status: join(dataDir, 'status.json'),
    /** The VAPID key pair push services know this agent by. */
    vapid: join(dataDir, 'vapid.json'),
    /** Each device's push subscription and what it wants pushed. */
    push: join(dataDir, 'push.json'),
    /** Claude sessions reporting from outside the tabs (pocketmux hooks install). */
    outside: join(dataDir, 'outside.json'),
    /** Review: the sessions' recorded starts, and beside it a folder of snapshots for each. */
    changes: join(dataDir, 'changes', 'sessions.json'),
    log: join(dataDir, 'logs', 'agent.log'),
  };
}
export type DataPaths = ReturnType<typeof dataPaths>;
