import { readFileSync, statSync } from 'node:fs';
import { dataPaths } from '../config/paths.js';
import { LABEL, launchdPlist, launchdPlistPath, PLIST_MARKER, plistJob } from './launchd.js';
import { failureReason, type RunResult, type Runner, shellWords } from './runner.js';
import type { ServiceSpec } from './spec.js';
import { systemdUnit, systemdUnitPath, UNIT_MARKER, UNIT_NAME, unitCommand } from './systemd.js';
import { processAlive } from '../util/process-alive.js';

/** A service manager command that was run, as shown to the person, and how it went. */
export interface Step {
  command: string;
  ok: boolean;
  /** Why it failed, or a note (not loaded before). */
  note?: string;
}

export interface Outcome {
  ok: boolean;
  steps: Step[];
  /** Why it did not work, in the manager's words. */
  reason?: string;
  /** systemd: the unit is linked to start at login even though the start failed. */
  enabled?: boolean;
}

export interface ManagerState {
  /** The manager answered; when false, `detail` says why not, and `running` is unknown. */
  known: boolean;
  running: boolean;
  /** Exited with an error: waiting to be restarted, or given up. */
  failed: boolean;
  pid: number | null;
  /** In the manager's terms: `active (running)`, `failed (failed)`, `running`, `not loaded`. */
  detail: string;
  /** Starts at login (systemd: enabled; launchd: not disabled). */
  enabled: boolean | null;
}

/** What an installed file says, read back. */
export interface InstalledJob {
  command: string[];
  dataDir: string | null;
  stdout: string | null;
  stderr: string | null;
}

export interface ServiceLogs {
  /** The command that shows the service's output (systemd). */
  journal?: string;
  /** The files launchd writes the agent's stdout and stderr to. */
  stdout?: string;
  stderr?: string;
  /** The agent's own log, rotated by size. */
  agent: string | null;
}

export interface ServiceManager {
  readonly kind: 'systemd' | 'launchd';
  /** What the file is, for messages. */
  readonly what: string;
  /** The file install writes. */
  readonly path: string;
  /** The line every file pocketmux writes carries. */
  readonly marker: string;
  render(spec: ServiceSpec): string;
  read(text: string): InstalledJob | null;
  /** Loads the written file and (re)starts the agent from it. */
  activate(): Promise<Outcome>;
  /** Makes it start at the next login without starting it now. */
  enableOnly(): Promise<Outcome>;
  /** Stops the agent and unloads or disables the service (before the file is removed). */
  deactivate(): Promise<Outcome>;
  /** What follows the file's removal (systemd forgets the unit). */
  afterRemove(): Promise<Step[]>;
  state(): Promise<ManagerState>;
  /** The commands that start it by hand, when the manager could not be reached from here. */
  manualStart(): string;
  manualStop(): string;
  logs(job: InstalledJob | null): ServiceLogs;
  /** The last lines the service wrote, to show why it failed. */
  recentOutput(job: InstalledJob | null): Promise<string>;
}

function dataDirOf(command: string[]): string | null {
  const at = command.indexOf('--data-dir');
  return at >= 0 ? (command[at + 1] ?? null) : null;
}

function step(command: string[], result: RunResult, note?: string): Step {
  const ok = result.code === 0;
  const why = ok ? note : failureReason(result);
  return why === undefined ? { command: shellWords(command), ok } : { command: shellWords(command), ok, note: why };
}

function tail(path: string | null, lines: number): string {
  if (!path) return '';
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines - 1).join('\n').trim();
  } catch {
    return '';
  }
}

export class SystemdManager implements ServiceManager {
  readonly kind = 'systemd';
  readonly what = 'systemd user unit';
  readonly marker = UNIT_MARKER;
  readonly path: string;

  constructor(
    private readonly run: Runner,
    env: NodeJS.ProcessEnv,
    home: string,
  ) {
    this.path = systemdUnitPath(env, home);
  }

  private async systemctl(...args: string[]): Promise<{ result: RunResult; step: Step }> {
    const result = await this.run('systemctl', ['--user', ...args]);
    return { result, step: step(['systemctl', '--user', ...args], result) };
  }

  render(spec: ServiceSpec): string {
    return systemdUnit(spec);
  }

  read(text: string): InstalledJob | null {
    const command = unitCommand(text);
    return command ? { command, dataDir: dataDirOf(command), stdout: null, stderr: null } : null;
  }

  async activate(): Promise<Outcome> {
    const reload = await this.systemctl('daemon-reload');
    // enable only links the unit into default.target.wants, and works without the manager:
    // when it cannot be reached now, the unit still starts at the next login.
    const enable = await this.systemctl('enable', UNIT_NAME);
    const steps = [reload.step, enable.step];
    if (reload.result.code !== 0) return { ok: false, steps, reason: failureReason(reload.result), enabled: enable.result.code === 0 };
    if (enable.result.code !== 0) return { ok: false, steps, reason: failureReason(enable.result) };
    // restart, not enable --now: an install over a running service starts it with its new options.
    const restart = await this.systemctl('restart', UNIT_NAME);
    steps.push(restart.step);
    return restart.result.code === 0 ? { ok: true, steps } : { ok: false, steps, reason: failureReason(restart.result) };
  }

  async enableOnly(): Promise<Outcome> {
    const reload = await this.systemctl('daemon-reload');
    const enable = await this.systemctl('enable', UNIT_NAME);
    const steps = [reload.step, enable.step];
    return enable.result.code === 0 ? { ok: true, steps } : { ok: false, steps, reason: failureReason(enable.result) };
  }

  async deactivate(): Promise<Outcome> {
    // Without the manager, disable still removes the link and only the stop fails.
    const disable = await this.systemctl('disable', '--now', UNIT_NAME);
    return disable.result.code === 0 ? { ok: true, steps: [disable.step] } : { ok: false, steps: [disable.step], reason: failureReason(disable.result) };
  }

  async afterRemove(): Promise<Step[]> {
    return [(await this.systemctl('daemon-reload')).step];
  }

  async state(): Promise<ManagerState> {
    const show = await this.run('systemctl', ['--user', 'show', UNIT_NAME, '--property=ActiveState,SubState,MainPID,UnitFileState']);
    if (show.code !== 0) {
      const enabled = await this.run('systemctl', ['--user', 'is-enabled', UNIT_NAME]);
      const word = enabled.stdout.trim();
      return {
        known: false,
        running: false,
        failed: false,
        pid: null,
        detail: `unknown: ${failureReason(show)}`,
        enabled: word === '' ? null : word === 'enabled',
      };
    }
    const props: Record<string, string> = {};
    for (const line of show.stdout.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) props[line.slice(0, eq)] = line.slice(eq + 1).trim();
    }
    const active = props.ActiveState ?? 'unknown';
    const sub = props.SubState ?? 'unknown';
    const pid = Number(props.MainPID);
    return {
      known: true,
      running: active === 'active',
      failed: active === 'failed' || sub === 'auto-restart',
      pid: Number.isInteger(pid) && pid > 0 ? pid : null,
      detail: `${active} (${sub})`,
      enabled: props.UnitFileState === undefined ? null : props.UnitFileState === 'enabled',
    };
  }

  manualStart(): string {
    return `systemctl --user daemon-reload && systemctl --user enable ${UNIT_NAME} && systemctl --user restart ${UNIT_NAME}`;
  }

  manualStop(): string {
    return `systemctl --user disable --now ${UNIT_NAME} && systemctl --user daemon-reload`;
  }

  logs(job: InstalledJob | null): ServiceLogs {
    return { journal: 'journalctl --user -u pocketmux', agent: job?.dataDir ? dataPaths(job.dataDir).log : null };
  }

  async recentOutput(): Promise<string> {
    const result = await this.run('journalctl', ['--user', '-u', UNIT_NAME, '-n', '20', '--no-pager', '-o', 'cat']);
    return result.code === 0 ? result.stdout.trim() : '';
  }
}

export class LaunchdManager implements ServiceManager {
  readonly kind = 'launchd';
  readonly what = 'launchd agent';
  readonly marker = PLIST_MARKER;
  readonly path: string;
  private readonly domain: string;
  private readonly target: string;

  constructor(
    private readonly run: Runner,
    home: string,
    uid: number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.path = launchdPlistPath(home);
    this.domain = `gui/${uid}`;
    this.target = `${this.domain}/${LABEL}`;
  }

  private async launchctl(args: string[], note?: string): Promise<{ result: RunResult; step: Step }> {
    const result = await this.run('launchctl', args);
    return { result, step: step(['launchctl', ...args], result, note) };
  }

  /** bootout's answer when the job was not loaded: not an error for a (re)install or an uninstall. */
  private notLoaded(result: RunResult): boolean {
    return result.code === 3 || result.code === 113 || /no such process|could not find/i.test(`${result.stderr}${result.stdout}`);
  }

  render(spec: ServiceSpec): string {
    return launchdPlist(spec);
  }

  read(text: string): InstalledJob | null {
    const job = plistJob(text);
    return job ? { ...job, dataDir: dataDirOf(job.command) } : null;
  }

  async activate(): Promise<Outcome> {
    // An earlier install may be loaded: unload it, so the new file (and options) is what runs.
    const bootout = await this.launchctl(['bootout', this.target]);
    const steps = [this.notLoaded(bootout.result) ? { ...bootout.step, ok: true, note: 'was not loaded' } : bootout.step];
    const enable = await this.launchctl(['enable', this.target]);
    steps.push(enable.step);
    let bootstrap = await this.launchctl(['bootstrap', this.domain, this.path]);
    if (bootstrap.result.code !== 0 && bootstrap.result.code !== null) {
      // The bootout may still be finishing: launchd refuses a label it is unloading.
      await this.sleep(1_000);
      bootstrap = await this.launchctl(['bootstrap', this.domain, this.path]);
    }
    steps.push(bootstrap.step);
    return bootstrap.result.code === 0 ? { ok: true, steps } : { ok: false, steps, reason: failureReason(bootstrap.result) };
  }

  async enableOnly(): Promise<Outcome> {
    // launchd loads every plist in ~/Library/LaunchAgents at login, unless it is disabled.
    const enable = await this.launchctl(['enable', this.target]);
    return enable.result.code === 0 ? { ok: true, steps: [enable.step] } : { ok: false, steps: [enable.step], reason: failureReason(enable.result) };
  }

  async deactivate(): Promise<Outcome> {
    const bootout = await this.launchctl(['bootout', this.target]);
    if (bootout.result.code === 0) return { ok: true, steps: [bootout.step] };
    if (this.notLoaded(bootout.result)) return { ok: true, steps: [{ ...bootout.step, ok: true, note: 'was not loaded' }] };
    return { ok: false, steps: [bootout.step], reason: failureReason(bootout.result) };
  }

  async afterRemove(): Promise<Step[]> {
    return [];
  }

  async state(): Promise<ManagerState> {
    const print = await this.run('launchctl', ['print', this.target]);
    const disabled = await this.run('launchctl', ['print-disabled', this.domain]);
    const mark = new RegExp(`"${LABEL.replace(/\./g, '\\.')}"\\s*=>\\s*(\\w+)`).exec(disabled.stdout)?.[1];
    const enabled = disabled.code !== 0 ? null : mark === undefined ? true : mark === 'enabled' || mark === 'false';
    if (print.code === null) return { known: false, running: false, failed: false, pid: null, detail: `unknown: ${failureReason(print)}`, enabled };
    if (print.code !== 0) return { known: true, running: false, failed: false, pid: null, detail: 'not loaded', enabled };
    const field = (name: string) => new RegExp(`^\\s*${name} = (.+)$`, 'm').exec(print.stdout)?.[1]?.trim();
    const state = field('state') ?? 'unknown';
    const pid = Number(field('pid'));
    const lastExit = field('last exit code');
    const running = state === 'running';
    return {
      known: true,
      running,
      failed: !running && lastExit !== undefined && lastExit !== '0' && !lastExit.startsWith('('),
      pid: running && Number.isInteger(pid) && pid > 0 ? pid : null,
      detail: lastExit !== undefined && !running ? `${state} (last exit code ${lastExit})` : state,
      enabled,
    };
  }

  manualStart(): string {
    return `launchctl enable ${this.target} && launchctl bootstrap ${this.domain} ${shellWords([this.path])}`;
  }

  manualStop(): string {
    return `launchctl bootout ${this.target}`;
  }

  logs(job: InstalledJob | null): ServiceLogs {
    const logs: ServiceLogs = { agent: job?.dataDir ? dataPaths(job.dataDir).log : null };
    if (job?.stdout) logs.stdout = job.stdout;
    if (job?.stderr) logs.stderr = job.stderr;
    return logs;
  }

  async recentOutput(job: InstalledJob | null): Promise<string> {
    return tail(job?.stderr ?? null, 20);
  }
}

/** The agent holding a data dir's lock, when it is alive (EPERM: alive, someone else's). */
export function lockHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(dataPaths(dataDir).lock, 'utf8').trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return processAlive(pid) ? pid : null;
}

export type Started = { ok: true; pid: number | null } | { ok: false; why: 'failed' | 'timeout'; state: ManagerState };

/**
 * Waits for the agent the manager just started: it writes its port file once it listens.
 * A file older than the start belongs to an agent before it. A manager that reports the
 * service failed (or waiting to restart) ends the wait early.
 */
export async function waitForAgent(
  manager: ServiceManager,
  dataDir: string,
  since: number,
  opts: { timeoutMs: number; pollMs: number; sleep: (ms: number) => Promise<void> },
): Promise<Started> {
  const deadline = Date.now() + opts.timeoutMs;
  const portFile = dataPaths(dataDir).port;
  for (;;) {
    let fresh = false;
    try {
      fresh = statSync(portFile).mtimeMs >= since - 1_000;
    } catch {
      // Not listening yet.
    }
    const state = await manager.state();
    if (fresh && (!state.known || state.running)) return { ok: true, pid: state.pid };
    if (state.known && state.failed) return { ok: false, why: 'failed', state };
    if (Date.now() >= deadline) return { ok: false, why: 'timeout', state };
    await opts.sleep(opts.pollMs);
  }
}
