import type { LoginEnvironment } from '../config/login-env.js';
import { dataDirIdentity } from '../config/tmux-socket.js';
import type { Logger } from '../util/log.js';
import { Tmux } from './tmux.js';

/** pocketmux's own tmux server, checked and started: tabs run there, in the login shell and environment. */
export async function openTmux(opts: { bin: string; socket: string; configFile: string; dataDir: string }, login: LoginEnvironment, log: Logger): Promise<{ tmux: Tmux; version: string }> {
  const tmux = new Tmux({ bin: opts.bin, socket: opts.socket, configFile: opts.configFile, env: login.env, defaultShell: login.shell, owner: dataDirIdentity(opts.dataDir) });
  const version = await tmux.preflight();
  await tmux.start();
  log.info('tmux ready', { version, socket: opts.socket });
  return { tmux, version };
}
