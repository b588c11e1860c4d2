import { HOOK_HEADERS } from '../../protocol/hook-contract.js';
import { API_ROUTES, routePath } from '../../protocol/routes.js';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { findExecutable } from '../util/shell.js';
import { userHooksInstall } from '../claude/user-hooks-file.js';
import { advisedCommand } from '../config/command-name.js';
import type { AgentConfig } from '../config/config.js';
import { resolveLoginPath } from '../config/login-env.js';
import { dataPaths } from '../config/paths.js';
import { parseTmuxVersion, tmuxIsRecentEnough } from '../tmux/commands.js';
import { visibleText } from '../../protocol/safe-text.js';
import { PEM_MAX_BYTES } from '../store/tls.js';
import { readRegularFileSync } from '../util/regular-file.js';

/**
 * `ok`: works. `optional`: not set up, and not needed for what the person chose (HTTPS and push
 * for a phone, when the agent serves this machine only; Claude outside the tabs). `fix`: what
 * the chosen setup needs does not work; only this makes doctor exit 1.
 */
export type CheckStatus = 'ok' | 'optional' | 'fix';

export interface Check {
  name: string;
  status: CheckStatus;
  /** Nothing to fix (status is not `fix`): what scripts read before statuses had names. */
  ok: boolean;
  /** What was found, and when not ok, what to do. */
  detail: string;
}

function check(name: string, status: CheckStatus, detail: string): Check {
  return { name, status, ok: status !== 'fix', detail };
}

/** Whether the person set the agent up for devices other than this machine: only then are HTTPS and push needed. */
export function servesOtherDevices(config: Pick<AgentConfig, 'host' | 'tls' | 'publicUrl' | 'tailscaleBin'>): boolean {
  return config.tls !== null || config.publicUrl !== null || config.tailscaleBin !== null || !/^(127\.|localhost$|::1$)/.test(config.host);
}

function run(bin: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, args, { timeout: 5000 }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** `pocketmux doctor`: each thing pocketmux needs, checked from this machine, with the fix. */
export async function doctor(config: AgentConfig): Promise<Check[]> {
  const checks: Check[] = [];
  const paths = dataPaths(config.dataDir);
  const phones = servesOtherDevices(config);

  const tmuxOut = await run(config.tmuxBin, ['-V']);
  const version = tmuxOut ? parseTmuxVersion(tmuxOut) : null;
  checks.push(
    !tmuxOut
      ? check('tmux', 'fix', `"${config.tmuxBin}" not found: install tmux (apt-get install tmux, brew install tmux)`)
      : version && tmuxIsRecentEnough(version)
        ? check('tmux', 'ok', tmuxOut.trim())
        : check('tmux', 'fix', `${tmuxOut.trim()} is too old: pocketmux needs 3.0 or newer`),
  );

  const login = await resolveLoginPath(process.env);
  const claude = findExecutable(config.claudeBin, login.path);
  checks.push(
    claude
      ? check('claude', 'ok', `${claude} (on the login PATH)`)
      : check('claude', 'fix', `"${config.claudeBin}" is not on your login shell's PATH: install Claude Code, or pass --claude-bin`),
  );
  const codex = findExecutable(config.codexBin, login.path);
  checks.push(
    codex
      ? check('codex', 'ok', `${codex} (on the login PATH): New Codex starts it`)
      : check('codex', 'optional', `"${config.codexBin}" is not on your login shell's PATH: only for Codex tabs (npm install -g @openai/codex, or pass --codex-bin)`),
  );

  let port: string | null = null;
  try {
    port = readFileSync(paths.port, 'utf8').trim();
  } catch {
    // No agent running.
  }
  let token = '';
  try {
    token = readFileSync(paths.hookToken, 'utf8').trim();
  } catch {
    // Not installed yet.
  }
  if (!port) {
    checks.push(check('agent', 'fix', `not running for ${config.dataDir}: start it with ${advisedCommand('start', config.dataDir)}`));
  } else {
    const answer = await fetch(`http://127.0.0.1:${port}${routePath(API_ROUTES.session)}`, { headers: { [HOOK_HEADERS.token]: token }, signal: AbortSignal.timeout(3000) })
      .then((r) => r.status)
      .catch(() => 0);
    checks.push(
      answer === 200
        ? check('agent', 'ok', `running; local tools reach it on 127.0.0.1:${port}`)
        : check('agent', 'fix', `the port file says ${port} but the agent does not answer there (stale?): restart it`),
    );
  }

  try {
    accessSync(`${paths.dataDir}/hooks/hook.sh`, constants.X_OK);
    // The HTTP settings, and the command-only ones for a claude too old for HTTP hooks.
    const ok = ['settings.json', 'settings-command.json'].every((name) => {
      const settings = JSON.parse(readFileSync(`${paths.dataDir}/hooks/${name}`, 'utf8')) as { hooks?: object; statusLine?: object };
      return settings.hooks !== undefined && settings.statusLine !== undefined;
    });
    checks.push(ok ? check('hooks', 'ok', `installed in ${paths.dataDir}/hooks`) : check('hooks', 'fix', 'a settings file lacks hooks: restart the agent to rewrite it'));
  } catch {
    checks.push(check('hooks', 'fix', 'not installed: the agent writes them at start'));
  }
  checks.push(userHooksCheck(config));
  checks.push(curlCheck(await run('curl', ['--version'])));

  const https = config.tls !== null || config.tailscaleBin !== null || config.publicUrl?.startsWith('https:') === true;
  if (config.tls) {
    try {
      const cert = new X509Certificate(readRegularFileSync(config.tls.certFile, { maxBytes: PEM_MAX_BYTES }));
      const days = Math.floor((Date.parse(cert.validTo) - Date.now()) / 86_400_000);
      const keyMode = statSync(config.tls.keyFile).mode & 0o777;
      const problems = [
        ...(days < 0 ? [`expired on ${cert.validTo}`] : days < 14 ? [`expires in ${days} days`] : []),
        ...((keyMode & 0o077) !== 0 ? [`the key is ${keyMode.toString(8)}: chmod 600 ${config.tls.keyFile}`] : []),
      ];
      checks.push(problems.length ? check('tls', 'fix', problems.join('; ')) : check('tls', 'ok', `${cert.subject.replace(/\n/g, ', ')}, valid until ${cert.validTo}`));
    } catch (err) {
      checks.push(check('tls', 'fix', `cannot read the certificate or key: ${(err as Error).message}`));
    }
  } else if (config.tailscaleBin !== null) {
    checks.push(check('tls', 'ok', 'served by tailscale serve on this machine\'s tailnet name, set up when the agent starts'));
  } else if (https) {
    checks.push(check('tls', 'ok', `served by a proxy at ${config.publicUrl}`));
  } else if (phones) {
    checks.push(check('tls', 'fix', 'no HTTPS, yet phones reach the agent: they get no install, offline or push, and the pairing secret crosses the network in the clear; see "Put it on your phone" in the README'));
  } else {
    checks.push(check('tls', 'optional', 'no HTTPS, and this machine needs none (http://127.0.0.1 is secure to its browser); a phone needs it: --tailscale, --public-url or --tls-cert/--tls-key, see "Put it on your phone" in the README'));
  }

  checks.push(pushCheck(paths, https, phones));

  if (config.publicUrl) {
    const status = await fetch(config.publicUrl, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.status)
      .catch((err: Error) => `${err.message}${err.cause ? `: ${(err.cause as Error).message}` : ''}`);
    checks.push(
      status === 200
        ? check('public url', 'ok', `${config.publicUrl} answers from this machine`)
        : check('public url', 'fix', `${config.publicUrl} does not answer from this machine (${status}): check the proxy or tailscale serve`),
    );
  }
  return checks;
}

/** `curl 7.88.1 (x86_64-pc-linux-gnu) …` → [7, 88, 1]; null when the first line says no version. */
export function parseCurlVersion(output: string): [number, number, number] | null {
  const m = /^curl (\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?/.exec(output);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** The hook script reads its token header from a file (`-H @file`), which curl does from 7.55 on. */
export function curlCheck(versionOutput: string | null): Check {
  if (versionOutput === null) return check('curl', 'fix', 'the hook script needs curl: install it (apt-get install curl)');
  const version = parseCurlVersion(versionOutput);
  const shown = versionOutput.split('\n', 1)[0]?.slice(0, 80) ?? '';
  if (version === null) return check('curl', 'fix', `cannot tell curl's version from "${shown}": the hook script needs curl 7.55 or newer`);
  const [major, minor] = version;
  if (major > 7 || (major === 7 && minor >= 55)) return check('curl', 'ok', version.join('.'));
  return check('curl', 'fix', `curl ${version.join('.')} is too old: the hook script needs 7.55 or newer (it reads the token header from a file)`);
}

/** Optional: claude outside pocketmux's tabs reports only with the user hooks installed. */
function userHooksCheck(config: AgentConfig): Check {
  const install = advisedCommand('hooks install', config.dataDir);
  try {
    const { state, path, missing } = userHooksInstall(config.claudeConfigDir, config.dataDir);
    if (state === 'installed') return check('user hooks', 'ok', `installed in ${path}: claude started anywhere reports`);
    if (state === 'some') return check('user hooks', 'optional', `installed for some events only (missing ${missing.join(', ')}): run ${install}`);
    return check('user hooks', 'optional', `not installed: only claude in pocketmux's Claude tabs reports; ${install} adds them to ${path}`);
  } catch (err) {
    return check('user hooks', 'optional', `cannot tell: ${(err as Error).message}`);
  }
}

/**
 * Push readiness: the agent's VAPID keys (made at its first start, private), HTTPS (a phone's
 * browser will not subscribe without it; a browser on this machine will, at http://127.0.0.1),
 * and how many paired devices have subscribed. Keys readable by others are always to fix.
 */
function pushCheck(paths: ReturnType<typeof dataPaths>, https: boolean, phones: boolean): Check {
  const count = (file: string, list: (json: unknown) => unknown[]): number | null => {
    try {
      return list(JSON.parse(readFileSync(file, 'utf8')) as unknown).length;
    } catch {
      return null;
    }
  };
  let mode: number;
  try {
    mode = statSync(paths.vapid).mode & 0o777;
  } catch {
    return check('push', phones ? 'fix' : 'optional', 'no VAPID keys yet: the agent makes them at its first start');
  }
  const devices = count(paths.devices, (j) => (j as { devices?: unknown[] }).devices ?? []) ?? 0;
  const subscribed = count(paths.push, (j) => Object.values((j as { devices?: Record<string, { subscription?: unknown }> }).devices ?? {}).filter((d) => d.subscription)) ?? 0;
  const summary = `${subscribed} of ${devices} paired devices subscribed`;
  if ((mode & 0o077) !== 0) return check('push', 'fix', `vapid.json is ${mode.toString(8)}: chmod 600 ${paths.vapid}; ${summary}`);
  if (https) return check('push', 'ok', `VAPID keys ready; ${summary}`);
  const noHttps = 'phones cannot turn notifications on without HTTPS (a browser on this machine at http://127.0.0.1 can)';
  return check('push', phones ? 'fix' : 'optional', `${noHttps}; VAPID keys ready; ${summary}`);
}

const LABELS: Record<CheckStatus, string> = { ok: 'ok', optional: 'optional', fix: 'FIX' };

/** Details quote tmux's output, paths, certificate subjects and network errors: shown escaped. */
export function formatChecks(checks: Check[]): string {
  const lines = checks.map((c) => `${LABELS[c.status].padEnd(8)} ${c.name.padEnd(10)} ${visibleText(c.detail)}`);
  const toFix = checks.filter((c) => c.status === 'fix').length;
  const verdict = toFix === 0 ? 'Nothing to fix: what this setup needs works.' : `${toFix} to fix (FIX); the rest works or is optional.`;
  return `${lines.join('\n')}\n${verdict}\n`;
}
