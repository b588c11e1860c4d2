import { hostname, networkInterfaces } from 'node:os';

/**
 * The `Host` names the agent answers to. A page on another site can point its own DNS
 * name at 127.0.0.1 (DNS rebinding) and then talk to us as a "same-origin" page; its
 * requests still carry its own name in `Host`, and are refused.
 */
export class HostGuard {
  private allowed = new Set<string>();

  constructor(private readonly opts: { host: string; publicUrl?: string | null }) {}

  /** Known once the server listens (the port may have been chosen by the system). */
  listening(port: number, localPort: number | null = null): void {
    const opts = { ...this.opts, port };
    this.allowed = new Set();
    if (localPort !== null) {
      this.allowed.add(`127.0.0.1:${localPort}`);
      this.allowed.add(`localhost:${localPort}`);
    }
    const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
    const wildcard = opts.host === '0.0.0.0' || opts.host === '::';
    if (!wildcard) names.add(opts.host.includes(':') ? `[${opts.host}]` : opts.host);
    if (wildcard) {
      for (const list of Object.values(networkInterfaces())) {
        for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address);
      }
      const name = hostname();
      names.add(name);
      names.add(`${name}.local`);
    }
    for (const n of names) {
      this.allowed.add(`${n.toLowerCase()}:${opts.port}`);
    }
    if (opts.publicUrl) this.allowed.add(new URL(opts.publicUrl).host.toLowerCase());
  }


  allows(hostHeader: string | undefined): boolean {
    return hostHeader !== undefined && this.allowed.has(hostHeader.toLowerCase());
  }
}
