import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname } from 'node:path';
import { visibleJson, visibleLines, visibleText } from '../../protocol/safe-text.js';
import { ConfigError, type ConfigInput, resolveConfig } from '../config/config.js';
import { defaultDataDir } from '../config/home.js';
import { defaultTmuxSocket } from '../config/tmux-socket.js';
import { TlsError } from '../store/tls.js';
import { type InstalledJob, LaunchdManager, lockHolder, type ManagerState, type ServiceManager, type Step, SystemdManager, waitForAgent } from '../service/manager.js';
import { processRunner, type Runner, shellWords } from '../service/runner.js';
import { launchdLogFiles, pocketmuxScript, ServiceError, serviceSpec } from '../service/spec.js';
import { InsecurePermissionsError } from '../store/permissions.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { FileRefusedError, readRegularFileSync } from '../util/regular-file.js';
import { advisedCommand, commandName } from '../config/command-name.js';
import { EXIT } from './remote.js';

const usage = (cmd: string) => `usage: ${cmd} service install [start options] | ${cmd} service uninstall | ${cmd} service status [--json]`;

/** Everything `pocketmux service` touches outside its own files, injectable for tests. */
export interface ServiceDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  uid: number;
  /** The node binary the service runs (process.execPath). */
  node: string;
  /** This pocketmux's bin/pocketmux.js, resolved when install needs it. */
  script: () => string;
  run: Runner;
  out: (text: string) => void;
  err: (text: string) => void;
  /** How long install waits for the started agent to listen. */
  waitMs: number;
  pollMs: number;
  sleep: (ms: number) => Promise<void>;
  /** systemd: whether the user manager outlives the last logout (null: cannot tell). */
  lingering: () => boolean | null;
  /** How the person runs pocketmux (`pocketmux`, `npx pocketmux`), for the commands messages name. */
  command: string;
}

export function defaultServiceDeps(): ServiceDeps {
  const env = process.env;
  return {
    platform: process.platform,
    env,
    home: env.HOME?.startsWith('/') ? env.HOME : homedir(),
    uid: process.getuid?.() ?? 0,
    node: process.execPath,
    script: pocketmuxScript,
    run: processRunner(env),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    waitMs: 30_000,
    pollMs: 250,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    command: commandName(),
    lingering: () => {
      try {
        return existsSync(`/var/lib/systemd/linger/${userInfo().username}`);
      } catch {
        return null;
      }
    },
  };
}

/** The service manager of this platform, chosen once. */
export function serviceManager(deps: ServiceDeps): ServiceManager | null {
  if (deps.platform === 'linux') return new SystemdManager(deps.run, deps.env, deps.home);
  if (deps.platform === 'darwin') return new LaunchdManager(deps.run, deps.home, deps.uid, deps.sleep);
  return null;
}

/** The `start` options install takes (and passes on); the others are refused. */
const START_OPTIONS = ['port', 'host', 'data-dir', 'tmux-socket', 'claude-bin', 'codex-bin', 'tls-cert', 'tls-key', 'public-url', 'tailscale'];
/** `--data-dir` everywhere, as every command takes it: the one service must be that data dir's. */
const OPTIONS: Record<string, string[]> = { install: START_OPTIONS, uninstall: ['data-dir'], status: ['json', 'data-dir'] };

type Values = Record<string, unknown>;

function flagsFrom(values: Values): ConfigInput {
  const s = (name: string) => values[name] as string | undefined;
  return {
    port: s('port'),
    host: s('host'),
    dataDir: s('data-dir'),
    tmuxSocket: s('tmux-socket'),
    claudeBin: s('claude-bin'),
    codexBin: s('codex-bin'),
    tlsCert: s('tls-cert'),
    tlsKey: s('tls-key'),
    publicUrl: s('public-url'),
    tailscale: values.tailscale as boolean | undefined,
  };
}

function showSteps(steps: Step[]): string {
  return steps.map((s) => `  ${s.ok ? 'ran   ' : 'FAILED'} ${s.command}${s.note ? `: ${s.note}` : ''}\n`).join('');
}

/** A unit or a property list of ours is a few KB. */
const SERVICE_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The service file at the manager's path: null when there is none. One that is not a regular
 * file, or too large, is there but not ours: its text is taken as empty.
 */
function readInstalled(manager: ServiceManager): { text: string; job: InstalledJob | null } | null {
  let text: string;
  try {
    text = readRegularFileSync(manager.path, { maxBytes: SERVICE_FILE_MAX_BYTES }).toString('utf8');
  } catch (err) {
    if (err instanceof FileRefusedError) return { text: '', job: null };
    return null;
  }
  return { text, job: manager.read(text) };
}

function logLines(manager: ServiceManager, job: InstalledJob | null): string[] {
  const logs = manager.logs(job);
  const lines: string[] = [];
  if (logs.journal) lines.push(`${logs.journal} -f`);
  if (logs.stdout) lines.push(`${logs.stdout} (stdout)`);
  if (logs.stderr) lines.push(`${logs.stderr} (stderr)`);
  if (logs.agent) lines.push(`${logs.agent} (the agent's own log, rotated at 10 MB)`);
  return lines;
}

function indentList(label: string, lines: string[]): string {
  return lines.map((line, i) => `  ${(i === 0 ? label : '').padEnd(16)}${visibleText(line)}\n`).join('');
}

async function install(manager: ServiceManager, values: Values, deps: ServiceDeps): Promise<number> {
  let spec: ReturnType<typeof serviceSpec>;
  let text: string;
  try {
    spec = serviceSpec({ flags: flagsFrom(values), env: deps.env, node: deps.node, script: deps.script(), home: deps.home });
    text = manager.render(spec);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TlsError || err instanceof InsecurePermissionsError || err instanceof ServiceError) {
      deps.err(`pocketmux: ${visibleLines(err.message)}\nNothing was installed.\n`);
      return EXIT.usage;
    }
    throw err;
  }
  const before = readInstalled(manager);
  if (before && !before.text.includes(manager.marker)) {
    deps.err(`pocketmux: ${visibleText(manager.path)} exists and was not written by pocketmux: move it away first.\n`);
    return EXIT.usage;
  }

  // An agent already running for this data dir (in a terminal) keeps its lock: the service
  // would fail until it stops. It is installed, to take over at the next login.
  const state = await manager.state();
  const holder = lockHolder(spec.dataDir);
  const other = holder !== null && holder !== state.pid ? holder : null;

  mkdirSync(dirname(manager.path), { recursive: true });
  if (manager.kind === 'launchd') {
    // launchd opens the log files before the agent runs: their folder must exist.
    mkdirSync(dirname(launchdLogFiles(spec.dataDir).stdout), { recursive: true, mode: 0o700 });
  }
  writeFileAtomic(manager.path, text, 0o644);
  deps.out(`Wrote ${visibleText(manager.path)} (a ${manager.what})\n  runs: ${visibleText(shellWords([spec.node, spec.script, ...spec.args]))}\n`);

  const job = manager.read(text);
  const logs = logLines(manager, job);
  const after =
    indentList('pair a device:', [advisedCommand('pair', spec.dataDir, { command: deps.command, home: spec.home })]) +
    indentList('its log:', logs) +
    indentList('status, remove:', [`${deps.command} service status, ${deps.command} service uninstall`]);
  const linger =
    manager.kind === 'systemd' && deps.lingering() === false
      ? 'It stops when you log out of your last session. To keep it running, and start it at boot:\n  sudo loginctl enable-linger "$USER"\n'
      : '';

  if (other !== null) {
    const outcome = await manager.enableOnly();
    deps.out(showSteps(outcome.steps));
    if (!outcome.ok) {
      deps.err(`pocketmux: the service is written but not enabled: ${visibleText(outcome.reason ?? '')}\nRun, in a login session:\n  ${visibleText(manager.manualStart())}\n`);
      return EXIT.failed;
    }
    deps.out(
      `Not started now: another pocketmux agent (pid ${other}) runs with ${visibleText(spec.dataDir)}.\n` +
        'The service takes over at your next login; or stop that agent (Ctrl-C where it runs) and run:\n' +
        `  ${visibleText(manager.manualStart())}\n${after}${linger}`,
    );
    return EXIT.ok;
  }

  const since = Date.now();
  const outcome = await manager.activate();
  deps.out(showSteps(outcome.steps));
  if (!outcome.ok) {
    const enabled = outcome.enabled === true;
    const reason = outcome.reason ?? 'the service manager failed';
    const manual = `  ${visibleText(manager.manualStart())}\n`;
    let why: string;
    if (/command not found/.test(reason)) {
      why = `This system has no such service manager: start pocketmux from your own startup script, and remove the file with: ${deps.command} service uninstall\n`;
    } else if (manager.kind === 'systemd' && /bus|booted with systemd|XDG_RUNTIME_DIR/i.test(reason)) {
      why =
        `systemctl --user cannot reach your user manager from here (a container, or a shell without a login session: su, sudo, some ssh setups).${enabled ? ' It starts at your next login.' : ''}\n` +
        `To start it now, run in a login session:\n${manual}`;
    } else if (manager.kind === 'launchd') {
      why = `launchctl could not load it from here (an ssh session without a login on the Mac?). It loads at your next login.\nTo load it now, run in a login session:\n${manual}`;
    } else {
      why = `To try again:\n${manual}and see why: journalctl --user -u pocketmux\n`;
    }
    deps.err(`pocketmux: the service is written${enabled ? ' and enabled' : ''}, but not started: ${visibleText(reason)}\n${why}`);
    return EXIT.failed;
  }

  const started = await waitForAgent(manager, spec.dataDir, since, { timeoutMs: deps.waitMs, pollMs: deps.pollMs, sleep: deps.sleep });
  if (!started.ok) {
    const output = await manager.recentOutput(job);
    deps.err(
      (started.why === 'failed'
        ? `pocketmux: the service started but the agent failed (${visibleText(started.state.detail)}); ${manager.kind === 'systemd' ? 'systemd' : 'launchd'} tries again, but it will likely fail the same way.\n`
        : `pocketmux: the service started but the agent did not listen within ${Math.round(deps.waitMs / 1000)} s (${visibleText(started.state.detail)}).\n`) +
        (output ? `Its last output:\n${visibleLines(output)}\n` : '') +
        `Fix it and install again, or remove it: ${deps.command} service uninstall\n${indentList('its log:', logs)}`,
    );
    return EXIT.failed;
  }
  deps.out(`pocketmux runs as a service${started.pid ? ` (pid ${started.pid})` : ''}: it starts at login, and again if it fails.\n${after}${linger}`);
  return EXIT.ok;
}

async function uninstall(manager: ServiceManager, dataDir: string | null, deps: ServiceDeps): Promise<number> {
  const installed = readInstalled(manager);
  if (!installed) {
    deps.out(`pocketmux service is not installed (no ${visibleText(manager.path)}): nothing to do.\n`);
    return EXIT.ok;
  }
  if (!installed.text.includes(manager.marker)) {
    deps.err(`pocketmux: ${visibleText(manager.path)} was not written by pocketmux service install; leaving it alone.\n`);
    return EXIT.failed;
  }
  const runs = installed.job?.dataDir ?? null;
  if (dataDir !== null && runs !== null && runs !== dataDir) {
    deps.err(
      `pocketmux: the service runs the data dir ${visibleText(runs)}, not ${visibleText(dataDir)}; leaving it alone.\n` +
        `To remove it: ${visibleText(advisedCommand('service uninstall', runs, { command: deps.command, home: deps.home }))}\n`,
    );
    return EXIT.failed;
  }
  const outcome = await manager.deactivate();
  deps.out(showSteps(outcome.steps));
  unlinkSync(manager.path);
  deps.out(`  removed ${visibleText(manager.path)}\n`);
  if (outcome.ok) deps.out(showSteps(await manager.afterRemove()));
  const sessions = installed.job ? tmuxSocketOf(installed.job.command, installed.job.dataDir, deps.home) : defaultTmuxSocket(defaultDataDir(deps.home), deps.home);
  if (!outcome.ok) {
    deps.err(
      `pocketmux: the file is removed, but the agent could not be stopped from here: ${visibleText(outcome.reason ?? '')}\n` +
        `If it still runs, in a login session: ${visibleText(manager.manualStop())}\n`,
    );
    return EXIT.failed;
  }
  const logs = manager.logs(installed.job);
  deps.out(
    `pocketmux service is uninstalled. The tmux sessions keep running (tmux -L ${visibleText(shellWords([sessions]))} ls);\n` +
      `the data dir and logs stay${logs.agent ? ` (${visibleText(dirname(logs.agent))})` : ''}.\n`,
  );
  return EXIT.ok;
}

/** The tmux server the installed agent runs: its --tmux-socket, else its data dir's own. */
export function tmuxSocketOf(command: string[], dataDir: string | null, home: string): string {
  const at = command.indexOf('--tmux-socket');
  const given = at >= 0 ? command[at + 1] : undefined;
  return given ?? defaultTmuxSocket(dataDir ?? defaultDataDir(home), home);
}

export interface ServiceStatus {
  manager: 'systemd' | 'launchd';
  installed: boolean;
  path: string;
  /** Starts at login; null when it cannot be told. */
  enabled: boolean | null;
  /** null when the manager could not be asked. */
  running: boolean | null;
  state: string;
  pid: number | null;
  command: string[] | null;
  dataDir: string | null;
  logs: ReturnType<ServiceManager['logs']>;
}

async function status(manager: ServiceManager, values: Values, dataDir: string | null, deps: ServiceDeps): Promise<number> {
  const installed = readInstalled(manager);
  const job = installed?.job ?? null;
  // One service per user: asked about another data dir, say which one it runs.
  const otherDataDir = dataDir !== null && typeof job?.dataDir === 'string' && job.dataDir !== dataDir;
  const state: ManagerState = await manager.state();
  const report: ServiceStatus = {
    manager: manager.kind,
    installed: installed !== null,
    path: manager.path,
    enabled: installed ? state.enabled : false,
    running: state.known ? state.running : null,
    state: state.detail,
    pid: state.pid,
    command: job?.command ?? null,
    dataDir: job?.dataDir ?? null,
    logs: manager.logs(job),
  };
  const runningCode = report.running === true ? EXIT.ok : report.running === false || !installed ? EXIT.notRunning : EXIT.failed;
  const code = otherDataDir ? EXIT.notRunning : runningCode;
  if (values.json === true) {
    deps.out(`${visibleJson(report, 2)}\n`);
    return code;
  }
  if (!installed) {
    deps.out(
      `pocketmux service is not installed (no ${visibleText(manager.path)}).\n` +
        (state.running ? `But a ${manager.kind} job named pocketmux runs (${visibleText(state.detail)}).\n` : '') +
        `Install it with: ${deps.command} service install [start options]\n`,
    );
    return code;
  }
  const running = report.running === null ? state.detail : report.running ? `running${state.pid ? ` (pid ${state.pid})` : ''}` : `not running: ${state.detail}`;
  deps.out(
    `pocketmux service (${manager.what})\n` +
      indentList('file:', [`${manager.path}${report.enabled === null ? '' : report.enabled ? ' (starts at login)' : ' (disabled: does not start at login)'}`]) +
      indentList('state:', [running]) +
      indentList('runs:', [job ? shellWords(job.command) : 'cannot read its command: install again']) +
      indentList('logs:', logLines(manager, job)) +
      (otherDataDir ? `It runs the data dir ${visibleText(job?.dataDir ?? '')}, not ${visibleText(dataDir ?? '')}: no service runs that one.\n` : ''),
  );
  return code;
}

/** `pocketmux service install | uninstall | status`. */
export async function runService(args: string[], values: Values, deps: ServiceDeps = defaultServiceDeps()): Promise<number> {
  const sub = args[0];
  const allowed = sub === undefined ? undefined : OPTIONS[sub];
  if (args.length !== 1 || sub === undefined || allowed === undefined) {
    deps.err(`pocketmux: ${usage(deps.command)}\n`);
    return EXIT.usage;
  }
  const stray = Object.keys(values).filter((name) => values[name] !== undefined && !allowed.includes(name));
  if (stray.length > 0) {
    deps.err(`pocketmux: service ${sub} does not take ${stray.map((s) => `--${s}`).join(', ')}\n${usage(deps.command)}\n`);
    return EXIT.usage;
  }
  const manager = serviceManager(deps);
  if (!manager) {
    deps.err(`pocketmux: service works with systemd (Linux) and launchd (macOS), not on ${visibleText(deps.platform)}; run ${deps.command} start from your own startup script.\n`);
    return EXIT.usage;
  }
  if (sub === 'install') return install(manager, values, deps);
  let dataDir: string | null = null;
  if (values['data-dir'] !== undefined) {
    try {
      dataDir = resolveConfig({ dataDir: values['data-dir'] as string }, deps.env).dataDir;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      deps.err(`pocketmux: ${visibleLines(err.message)}\n`);
      return EXIT.usage;
    }
  }
  if (sub === 'uninstall') return uninstall(manager, dataDir, deps);
  return status(manager, values, dataDir, deps);
}
