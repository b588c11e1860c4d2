/**
 * A process of its own (`proc-scanner.mjs`) that reads every process's command line and
 * environment over and over while a test runs, and reports where it saw any of the secrets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AgentHandle } from './agent.js';
import type { Session } from './client.js';
import { eventually } from './eventually.js';

export interface SecretSighting {
  secret: string;
  pid: number;
  where: 'cmdline' | 'environ';
  /** The process's arguments with each secret written as `<its name>`. */
  command: string;
}

const SCANNER = join(import.meta.dirname, 'proc-scanner.mjs');

export class SecretScanner {
  private readonly replies: Record<string, unknown>[] = [];

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => this.replies.push(JSON.parse(line) as Record<string, unknown>));
  }

  /** Starts scanning for `secrets` (name to value); they reach the scanner on its stdin. */
  static async start(secrets: Record<string, string>): Promise<SecretScanner> {
    const child = spawn(process.execPath, [SCANNER], { stdio: ['pipe', 'pipe', 'inherit'] });
    const scanner = new SecretScanner(child);
    child.stdin?.write(`${JSON.stringify({ secrets })}\n`);
    await scanner.reply('started', 10_000);
    return scanner;
  }

  private async reply(key: string, timeoutMs: number): Promise<Record<string, unknown>> {
    const found = await eventually(() => this.replies.find((r) => key in r), timeoutMs, `the scanner's "${key}"`);
    this.replies.splice(this.replies.indexOf(found), 1);
    return found;
  }

  /** How many passes over every process the scanner has completed. */
  async passes(): Promise<number> {
    this.child.stdin?.write(`${JSON.stringify({ ask: 'passes' })}\n`);
    return (await this.reply('passes', 10_000)).passes as number;
  }

  /** Waits until `count` whole passes have been made from now: whatever runs now has been looked at. */
  async morePasses(count: number): Promise<void> {
    const from = await this.passes();
    await eventually(async () => (await this.passes()) >= from + count + 1, 30_000, `${count} more scanner passes`);
  }

  /** Stops the scanner; what it saw, and in how many passes. */
  async stop(): Promise<{ passes: number; sightings: SecretSighting[] }> {
    this.child.stdin?.write(`${JSON.stringify({ ask: 'stop' })}\n`);
    const last = await this.reply('findings', 10_000);
    return { passes: last.passes as number, sightings: last.findings as SecretSighting[] };
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Every secret a running agent and a paired device hold: the hook token, the VAPID private
 * key, the credential hashes kept in devices.json, the pairing secret and code printed at
 * start, and the device's own credential.
 */
export function agentSecrets(agent: AgentHandle, device: Session): Record<string, string> {
  const secrets: Record<string, string> = {
    'hook token': readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim(),
    'VAPID private key': (JSON.parse(readFileSync(join(agent.dataDir, 'vapid.json'), 'utf8')) as { privateKey: string }).privateKey,
    'pairing secret': agent.token,
    'pairing code': agent.pairCode,
  };
  const credential = device.cookie.slice(device.cookie.indexOf('=') + 1);
  if (credential.length >= 16) secrets['device credential'] = credential;
  // Whatever long token-like strings devices.json keeps (hashes of credentials), by name.
  const devices = readFileSync(join(agent.dataDir, 'devices.json'), 'utf8');
  let n = 0;
  for (const [, field, value] of devices.matchAll(/"([A-Za-z]+)":\s*"([A-Za-z0-9_+/=-]{32,})"/g)) {
    secrets[`devices.json ${field} #${++n}`] = value as string;
  }
  return secrets;
}
