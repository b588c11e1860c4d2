/**
 * The code behind each CLI command, imported only when that command runs: `--version`, help
 * and the loopback commands (`tabs`, `tab`, `approvals`…) must not pay for loading the agent
 * (Express, web-push, node-pty, every route) on every call from a script.
 */
export const commandModules = {
  agent: () => import('../agent.js'),
  config: () => import('../config/config.js'),
  remote: () => import('./remote.js'),
  approvals: () => import('./approvals-cli.js'),
  changes: () => import('./changes-cli.js'),
  machines: () => import('./machines-cli.js'),
  service: () => import('./service.js'),
  hooks: () => import('./hooks-cli.js'),
  codexHooks: () => import('./codex-hooks-cli.js'),
  doctor: () => import('./doctor.js'),
  pairingText: () => import('./pairing-text.js'),
};

/** The errors of starting the agent that a person can fix, loaded when one needs telling apart. */
export async function startErrorClasses(): Promise<(abstract new (...args: never[]) => Error)[]> {
  const [config, listen, tls, tailscale, lock, permissions, tmux] = await Promise.all([
    import('../config/config.js'),
    import('../http/listen.js'),
    import('../store/tls.js'),
    import('../tailscale.js'),
    import('../store/lock.js'),
    import('../store/permissions.js'),
    import('../tmux/tmux.js'),
  ]);
  return [
    config.ConfigError,
    lock.LockHeldError,
    tmux.TmuxPreflightError,
    listen.PortInUseError,
    tls.TlsError,
    tailscale.TailscaleError,
    permissions.InsecurePermissionsError,
  ];
}
