import { HOOK_HEADERS } from '../../protocol/hook-contract.js';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { findExecutable } from '../claude/launcher.js';
import { userHooksInstall } from './hooks-cli.js';
import { commandName } from '../config/command-name.js';
import type { AgentConfig } from '../config/config.js';
import { resolveLoginPath } from '../config/login-env.js';
import { dataPaths } from '../config/paths.js';
import { parseTmuxVersion, tmuxIsRecentEnough } from '../tmux/commands.js';
import { visibleText } from '../../protocol/safe-text.js';
import { PEM_MAX_BYTES } from '../http/tls.js';
import { readRegularFileSync } from '../util/regular-file.js';

export interface Check {
  name: string;
  ok: boolean;
  /** What was found, and when not ok, what to do. */
  detail: string;
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

  const tmuxOut = await run(config.tmuxBin, ['-V']);
  const version = tmuxOut ? parseTmuxVersion(tmuxOut) : null;
  checks.push(
    !tmuxOut
      ? { name: 'tmux', ok: false, detail: `"${config.tmuxBin}" not found: install tmux (apt-get install tmux, brew install tmux)` }
      : version && tmuxIsRecentEnough(version)
        ? { name: 'tmux', ok: true, detail: tmuxOut.trim() }
        : { name: 'tmux', ok: false, detail: `${tmuxOut.trim()} is too old: pocketmux needs 3.0 or newer` },
  );

  const login = await resolveLoginPath(process.env);
  const claude = findExecutable(config.claudeBin, login.path);
  checks.push(
    claude
      ? { name: 'claude', ok: true, detail: `${claude} (on the login PATH)` }
      : { name: 'claude', ok: false, detail: `"${config.claudeBin}" is not on your login shell's PATH: install Claude Code, or pass --claude-bin` },
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
    checks.push({ name: 'agent', ok: false, detail: `not running for ${config.dataDir}: start it with ${commandName()} start` });
  } else {
    const answer = await fetch(`http://127.0.0.1:${port}/api/session`, { headers: { [HOOK_HEADERS.token]: token }, signal: AbortSignal.timeout(3000) })
      .then((r) => r.status)
      .catch(() => 0);
    checks.push(
      answer === 200
        ? { name: 'agent', ok: true, detail: `running; local tools reach it on 127.0.0.1:${port}` }
        : { name: 'agent', ok: false, detail: `the port file says ${port} but the agent does not answer there (stale?): restart it` },
    );
  }

  try {
    accessSync(`${paths.dataDir}/hooks/hook.sh`, constants.X_OK);
    // The HTTP settings, and the command-only ones for a claude too old for HTTP hooks.
    const ok = ['settings.json', 'settings-command.json'].every((name) => {
      const settings = JSON.parse(readFileSync(`${paths.dataDir}/hooks/${name}`, 'utf8')) as { hooks?: object; statusLine?: object };
      return settings.hooks !== undefined && settings.statusLine !== undefined;
    });
    checks.push({ name: 'hooks', ok, detail: ok ? `installed in ${paths.dataDir}/hooks` : 'a settings file lacks hooks: restart the agent to rewrite it' });
  } catch {
    checks.push({ name: 'hooks', ok: false, detail: 'not installed: the agent writes them at start' });
  }
  checks.push(userHooksCheck(config));
  checks.push(curlCheck(await run('curl', ['--version'])));

  if (config.tls) {
    try {
      const cert = new X509Certificate(readRegularFileSync(config.tls.certFile, { maxBytes: PEM_MAX_BYTES }));
      const days = Math.floor((Date.parse(cert.validTo) - Date.now()) / 86_400_000);
      const keyMode = statSync(config.tls.keyFile).mode & 0o777;
      const problems = [
        ...(days < 0 ? [`expired on ${cert.validTo}`] : days < 14 ? [`expires in ${days} days`] : []),
        ...((keyMode & 0o077) !== 0 ? [`the key is ${keyMode.toString(8)}: chmod 600 ${config.tls.keyFile}`] : []),
      ];
      checks.push({ name: 'tls', ok: problems.length === 0, detail: problems.length ? problems.join('; ') : `${cert.subject.replace(/\n/g, ', ')}, valid until ${cert.validTo}` });
    } catch (err) {
      checks.push({ name: 'tls', ok: false, detail: `cannot read the certificate or key: ${(err as Error).message}` });
    }
  } else {
    checks.push({ name: 'tls', ok: config.publicUrl?.startsWith('https:') === true, detail: config.publicUrl?.startsWith('https:') ? `served by a proxy at ${config.publicUrl}` : 'no HTTPS: phones get no install, offline or push; see "Use it from your phone" in the README' });
  }

  checks.push(pushCheck(paths, config.tls !== null || config.publicUrl?.startsWith('https:') === true));

  if (config.publicUrl) {
    const status = await fetch(config.publicUrl, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.status)
      .catch((err: Error) => `${err.message}${err.cause ? `: ${(err.cause as Error).message}` : ''}`);
    checks.push(
      status === 200
        ? { name: 'public url', ok: true, detail: `${config.publicUrl} answers from this machine` }
        : { name: 'public url', ok: false, detail: `${config.publicUrl} does not answer from this machine (${status}): check the proxy or tailscale serve` },
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
  if (versionOutput === null) return { name: 'curl', ok: false, detail: 'the hook script needs curl: install it (apt-get install curl)' };
  const version = parseCurlVersion(versionOutput);
  const shown = versionOutput.split('\n', 1)[0]?.slice(0, 80) ?? '';
  if (version === null) return { name: 'curl', ok: false, detail: `cannot tell curl's version from "${shown}": the hook script needs curl 7.55 or newer` };
  const [major, minor] = version;
  if (major > 7 || (major === 7 && minor >= 55)) return { name: 'curl', ok: true, detail: version.join('.') };
  return { name: 'curl', ok: false, detail: `curl ${version.join('.')} is too old: the hook script needs 7.55 or newer (it reads the token header from a file)` };
}

/** Informational: claude outside pocketmux's tabs reports only with the user hooks installed. */
function userHooksCheck(config: AgentConfig): Check {
  try {
    const { state, path, missing } = userHooksInstall(config.claudeConfigDir, config.dataDir);
    if (state === 'installed') return { name: 'user hooks', ok: true, detail: `installed in ${path}: claude started anywhere reports` };
    if (state === 'some') return { name: 'user hooks', ok: true, detail: `installed for some events only (missing ${missing.join(', ')}): run ${commandName()} hooks install` };
    return { name: 'user hooks', ok: true, detail: `not installed (optional): only claude in pocketmux's Claude tabs reports; ${commandName()} hooks install adds them to ${path}` };
  } catch (err) {
    return { name: 'user hooks', ok: true, detail: `cannot tell: ${(err as Error).message}` };
  }
}

/**
 * Push readiness: the agent's VAPID keys (made at its first start, private), HTTPS (a phone's
 * browser will not subscribe without it), and how many paired devices have subscribed.
 */
function pushCheck(paths: ReturnType<typeof dataPaths>, https: boolean): Check {
  const count = (file: string, list: (json: unknown) => unknown[]): number | null => {
    try {
      return list(JSON.parse(readFileSync(file, 'utf8')) as unknown).length;
    } catch {
      return null;
    }
  };
  let keys: string;
  try {
    const mode = statSync(paths.vapid).mode & 0o777;
    keys = (mode & 0o077) === 0 ? 'VAPID keys ready' : `vapid.json is ${mode.toString(8)}: chmod 600 ${paths.vapid}`;
  } catch {
    return { name: 'push', ok: false, detail: 'no VAPID keys yet: the agent makes them at its first start' };
  }
  const devices = count(paths.devices, (j) => (j as { devices?: unknown[] }).devices ?? []) ?? 0;
  const subscribed = count(paths.push, (j) => Object.values((j as { devices?: Record<string, { subscription?: unknown }> }).devices ?? {}).filter((d) => d.subscription)) ?? 0;
  const problems = [...(keys.startsWith('VAPID') ? [] : [keys]), ...(https ? [] : ['no HTTPS, so phones cannot turn notifications on (a browser on this machine at http://127.0.0.1 can)'])];
  const summary = `${keys.startsWith('VAPID') ? `${keys}; ` : ''}${subscribed} of ${devices} paired devices subscribed`;
  return { name: 'push', ok: problems.length === 0, detail: problems.length ? `${problems.join('; ')}; ${summary}` : summary };
}

/** Details quote tmux's output, paths, certificate subjects and network errors: shown escaped. */
export function formatChecks(checks: Check[]): string {
  return `${checks.map((c) => `${c.ok ? 'ok  ' : 'FIX '} ${c.name.padEnd(10)} ${visibleText(c.detail)}`).join('\n')}\n`;
}
