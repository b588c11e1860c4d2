import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConfigInput, expandHome, resolveConfig } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import { loadTls } from '../store/tls.js';
import { findExecutable } from '../util/shell.js';
import { visibleText } from '../../protocol/safe-text.js';

/** A service setting a person can fix (a value no service file can carry): exit 2, nothing written. */
export class ServiceError extends Error {}

/** Set in the service's environment; the agent then runs as a service (see config.ts). */
export const SERVICE_VARIABLE = 'POCKETMUX_SERVICE';

/** What the service runs, and with what environment: the input of both generators. */
export interface ServiceSpec {
  /** The absolute path of node (process.execPath). */
  node: string;
  /** The absolute, symlink-free path of this pocketmux's bin/pocketmux.js. */
  script: string;
  /** The arguments after the script: `start` and the person's options, resolved. */
  args: string[];
  /** The environment the agent starts with, in a stable order. */
  env: [string, string][];
  /** The resolved data dir (always passed as --data-dir, so the file says where it logs). */
  dataDir: string;
  home: string;
}

/** The whole command line: node, the script, its arguments. */
export function serviceCommand(spec: Pick<ServiceSpec, 'node' | 'script' | 'args'>): string[] {
  return [spec.node, spec.script, ...spec.args];
}

/** Where launchd writes the agent's stdout and stderr: beside agent.log, in the data dir. */
export function launchdLogFiles(dataDir: string): { stdout: string; stderr: string } {
  const logs = dirname(dataPaths(dataDir).log);
  return { stdout: join(logs, 'launchd.stdout.log'), stderr: join(logs, 'launchd.stderr.log') };
}

/**
 * Settings that become flags on the command line, so the file shows them; the rest of the
 * person's POCKETMUX_* variables go into the service's environment as they are.
 */
const AS_FLAGS = new Set([
  'POCKETMUX_PORT',
  'POCKETMUX_HOST',
  'POCKETMUX_DIR',
  'POCKETMUX_TMUX_SOCKET',
  'POCKETMUX_CLAUDE',
  'POCKETMUX_TLS_CERT',
  'POCKETMUX_TLS_KEY',
  'POCKETMUX_PUBLIC_URL',
  'POCKETMUX_TAILSCALE',
]);

/** The login environment a service manager does not give (or gives differently): shell and locale. */
const PASSED = ['SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE'] as const;

/** Used when the installing shell has no PATH at all; the agent adds the login shell's PATH itself. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * What neither a unit file nor a plist can hold: control characters (a newline would end a
 * unit's line; XML refuses most of C0 even escaped), unpaired surrogates and U+FFFE/U+FFFF.
 * Everything else (spaces, quotes, `%`, `$`, backslashes, any script) is quoted by the generators.
 */
const UNREPRESENTABLE = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function assertRepresentable(what: string, value: string): void {
  if (UNREPRESENTABLE.test(value)) {
    throw new ServiceError(`${what} holds a newline or another control character, which a service file cannot carry: "${visibleText(value)}"`);
  }
}

/** npm's cache of packages `npx` fetched: what it put on PATH is gone once npx returns, or soon after. */
function isNpxCache(dir: string): boolean {
  return dir.split(sep).includes('_npx');
}

/**
 * What npm puts first on PATH for `npx` and `npm run`: the `node_modules/.bin` of the
 * package and of every folder above, and npm's own node-gyp shim. The person's shell has
 * none of them.
 */
function isNpmAddition(dir: string): boolean {
  return (basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules') || basename(dir) === 'node-gyp-bin';
}

/**
 * The PATH for the service: the installing shell's, without what npm added for this one
 * command (`npx pocketmux service install` runs with npm's temporary folders first). The
 * folders node, tmux, claude and codex were found in stay, unless npx's cache holds them.
 */
export function servicePath(path: string | undefined, tools: { node: string; tmux: string; claude: string; codex?: string }): string {
  const dirs = (path ?? '').split(delimiter).filter(isAbsolute);
  const found = [dirname(tools.node), ...[tools.tmux, tools.claude, ...(tools.codex === undefined ? [] : [tools.codex])].map((bin) => findExecutable(bin, dirs.join(delimiter)))]
    .filter((p): p is string => p !== null)
    .map((p) => dirname(p));
  const kept = dirs.filter((dir, i) => dirs.indexOf(dir) === i && !isNpxCache(dir) && (!isNpmAddition(dir) || found.includes(dir)));
  return kept.length > 0 ? kept.join(delimiter) : DEFAULT_PATH;
}

/** bin/pocketmux.js of this pocketmux: from dist/agent/service (built) or agent/service (tests run the source). */
export function pocketmuxScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const root of [join(here, '..', '..', '..'), join(here, '..', '..')]) {
    const bin = join(root, 'bin', 'pocketmux.js');
    if (existsSync(bin) && existsSync(join(root, 'package.json'))) return realpathSync(bin);
  }
  throw new Error(`cannot find bin/pocketmux.js above ${here}`);
}

export interface SpecInput {
  /** The flags given after `service install`, exactly as `start` takes them. */
  flags: ConfigInput;
  /** The installing shell's environment. */
  env: NodeJS.ProcessEnv;
  node: string;
  script: string;
  home: string;
}

/**
 * The service's command line and environment, from the same resolution `start` uses, so a
 * bad flag (or a TLS key others can read, or a certificate that does not match it) fails
 * now rather than at the next login. Paths are made absolute: the service starts elsewhere.
 */
export function serviceSpec(input: SpecInput): ServiceSpec {
  const { flags, env } = input;
  // Before the data dir is looked at: a path holding a NUL or a newline is no path to check.
  if (flags.dataDir !== undefined) assertRepresentable('an option', flags.dataDir);
  const config = resolveConfig(flags, env);
  loadTls(config.tls);
  for (const [what, path] of [
    ['the node binary', input.node],
    ['bin/pocketmux.js', input.script],
    ['HOME', input.home],
  ] as const) {
    if (!isAbsolute(path)) throw new ServiceError(`${what} must be an absolute path, got "${visibleText(path)}"`);
  }

  const given = (flag: keyof ConfigInput, variable: string) => flags[flag] !== undefined || env[variable] !== undefined;
  const args = ['start', '--data-dir', config.dataDir];
  if (given('port', 'POCKETMUX_PORT')) args.push('--port', String(config.port));
  if (given('host', 'POCKETMUX_HOST')) args.push('--host', config.host);
  if (given('tmuxSocket', 'POCKETMUX_TMUX_SOCKET')) args.push('--tmux-socket', config.tmuxSocket);
  if (given('claudeBin', 'POCKETMUX_CLAUDE')) {
    // A bare name is looked up on the login PATH at every start; a path is pinned down now.
    const bin = config.claudeBin.includes('/') ? resolve(expandHome(config.claudeBin)) : config.claudeBin;
    args.push('--claude-bin', bin);
  }
  if (given('codexBin', 'POCKETMUX_CODEX')) args.push('--codex-bin', config.codexBin.includes('/') ? resolve(expandHome(config.codexBin)) : config.codexBin);
  if (config.tls) args.push('--tls-cert', config.tls.certFile, '--tls-key', config.tls.keyFile);
  if (config.publicUrl) args.push('--public-url', config.publicUrl);
  if (config.tailscaleBin) args.push('--tailscale');

  const vars: [string, string][] = [
    ['HOME', input.home],
    ['PATH', servicePath(env.PATH, { node: input.node, tmux: config.tmuxBin, claude: config.claudeBin, codex: config.codexBin })],
  ];
  for (const name of PASSED) {
    const value = env[name];
    if (value) vars.push([name, value]);
  }
  if (env.CLAUDE_CONFIG_DIR) vars.push(['CLAUDE_CONFIG_DIR', config.claudeConfigDir]);
  // Run by a service manager: no pairing secret on stdout (it would land in the journal), and
  // the log only in its rotated file (a launchd stderr file would grow without end).
  vars.push([SERVICE_VARIABLE, '1']);
  const own = Object.keys(env)
    .filter((name) => name.startsWith('POCKETMUX_') && name !== SERVICE_VARIABLE && !AS_FLAGS.has(name) && env[name] !== undefined)
    .sort();
  for (const name of own) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ServiceError(`the variable name "${visibleText(name)}" cannot go into a service file`);
    vars.push([name, env[name] as string]);
  }

  assertRepresentable('the node path', input.node);
  assertRepresentable('the pocketmux path', input.script);
  for (const word of args) assertRepresentable('an option', word);
  for (const [name, value] of vars) assertRepresentable(`$${name}`, value);

  return { node: input.node, script: input.script, args, env: vars, dataDir: config.dataDir, home: input.home };
}
