import type { AgentClis } from '../agents/agent-cli.js';
import { processLister } from '../claude/process.js';
import type { Logger } from '../util/log.js';
import { OutsideSessions } from './outside-sessions.js';
import { OutsideTmux } from './outside-tmux.js';

export interface OpenOutsideOptions {
  /** The file the sessions are kept in. */
  path: string;
  tmuxBin: string;
  env: NodeJS.ProcessEnv;
  /** tmux 3.2 and later take `-N` (never start a server). */
  noStartServer: boolean;
  claudeConfigDir: string;
  /** Each CLI's own test of whether it runs in a pane. */
  clis: AgentClis;
  max: number;
  log: Logger;
}

/**
 * Claude started outside the tabs (pocketmux hooks install), loaded from its file: a session is
 * kept while its claude runs in the pane its hooks named, on the person's own tmux server.
 */
export function openOutside(opts: OpenOutsideOptions): { outside: OutsideSessions; outsideTmux: OutsideTmux } {
  const outsideTmux = new OutsideTmux(opts.tmuxBin, opts.env, opts.noStartServer);
  const outside = new OutsideSessions({
    path: opts.path,
    log: opts.log,
    claudeConfigDir: opts.claudeConfigDir,
    max: opts.max,
    paneExists: (pane) => outsideTmux.paneExists(pane),
    agentInPane: async (pane, agent) => {
      const pid = await outsideTmux.panePid(pane);
      return pid !== null && opts.clis[agent].runsIn(pid, await processLister().list());
    },
  });
  outside.load();
  return { outside, outsideTmux };
}
