import { execFile } from 'node:child_process';
import { toDisposable, type Disposable } from './util/disposable.js';
import type { Logger } from './util/log.js';

export class TailscaleError extends Error {}

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: 15_000 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') reject(new TailscaleError(`--tailscale needs the tailscale CLI, and "${bin}" was not found; install Tailscale or drop --tailscale`));
      else reject(new TailscaleError(`tailscale ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
    });
  });
}

/**
 * `tailscale serve` in front of the agent: the agent stays on loopback, Tailscale gives the
 * machine an HTTPS name on the tailnet (with a real certificate), and the QR carries it.
 */
export class TailscaleServe {
  constructor(
    private readonly bin: string,
    private readonly log: Logger,
  ) {}

  /** The machine's HTTPS URL on the tailnet, from `tailscale status --json`. */
  async publicUrl(): Promise<string> {
    const out = await run(this.bin, ['status', '--json']);
    let name: unknown;
    try {
      name = (JSON.parse(out) as { Self?: { DNSName?: unknown } }).Self?.DNSName;
    } catch {
      throw new TailscaleError('tailscale status --json did not print JSON');
    }
    if (typeof name !== 'string' || !/^[a-z0-9.-]+\.?$/i.test(name) || name.length < 3) {
      throw new TailscaleError('this machine has no tailnet name; is Tailscale logged in (tailscale up)?');
    }
    return `https://${name.replace(/\.$/, '').toLowerCase()}/`;
  }

  /** Forwards the tailnet name to `port`, until disposed: then nothing forwards to a port the agent no longer owns. */
  async start(port: number): Promise<Disposable> {
    await run(this.bin, ['serve', '--bg', '--https=443', `http://127.0.0.1:${port}`]);
    this.log.info('tailscale serve forwards to the agent', { port });
    return toDisposable(() =>
      run(this.bin, ['serve', '--https=443', 'off']).then(
        () => undefined,
        (err: Error) => this.log.warn('could not undo tailscale serve', { error: err.message }),
      ),
    );
  }
}
