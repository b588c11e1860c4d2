import { HostGuard } from '../auth/host.js';
import type { AgentConfig } from '../config/config.js';
import { TailscaleServe } from '../tailscale.js';
import type { Logger } from '../util/log.js';

/** Said once, in full, when phones would reach the agent over plain HTTP. */
export const PLAIN_HTTP_WARNING =
  'pocketmux is reachable from other machines over plain HTTP. Phones can use it as a web page, ' +
  'but browsers allow installing the app, offline use and push notifications only over HTTPS ' +
  '(or on 127.0.0.1), and the pairing secret and credentials cross the network unencrypted. ' +
  'Fix it with --tls-cert/--tls-key (a certificate for this machine), or keep the agent on ' +
  '127.0.0.1 behind an HTTPS proxy such as `tailscale serve` and pass --public-url.';

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** How the agent is reached: the address it binds, whether it serves TLS, and the URL phones use. */
export class AgentAddress {
  constructor(
    private readonly opts: {
      host: string;
      tls: boolean;
      /** The URL phones reach the agent at, when a proxy (tailscale serve) stands in front. */
      publicUrl: string | null;
    },
  ) {}

  /** Browsers reach the agent over HTTPS, its own or a proxy's: the credential cookie is `Secure`. */
  get secure(): boolean {
    return this.opts.tls || this.opts.publicUrl?.startsWith('https:') === true;
  }

  /**
   * This machine's tools (hook.sh, the CLI) need a plain-HTTP twin on 127.0.0.1 when the
   * agent speaks TLS (hooks then pay no handshake) or is bound to one LAN address only.
   */
  get needsLocalTwin(): boolean {
    return this.opts.tls || !(isLoopbackHost(this.opts.host) || isWildcardHost(this.opts.host));
  }

  /** Phones on the network would use plain HTTP: no install, no push, secrets in the clear. */
  get plainHttpToOthers(): boolean {
    return !this.secure && !isLoopbackHost(this.opts.host);
  }

  /** The URL the agent prints and pairing links start with. */
  url(port: number): string {
    const { host, tls, publicUrl } = this.opts;
    const shown = isWildcardHost(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return publicUrl ?? `${tls ? 'https' : 'http'}://${shown}:${port}/`;
  }
}

/**
 * Where the agent is reached: behind `tailscale serve` the tailnet name (asked of tailscale now),
 * else the public URL given, else its own address; the Host header of each request must name one.
 */
export async function openAddress(config: Pick<AgentConfig, 'host' | 'tailscaleBin' | 'publicUrl'>, tls: boolean, log: Logger): Promise<{ address: AgentAddress; hostGuard: HostGuard; tailscale: TailscaleServe | null }> {
  const tailscale = config.tailscaleBin ? new TailscaleServe(config.tailscaleBin, log) : null;
  const publicUrl = tailscale ? await tailscale.publicUrl() : config.publicUrl;
  return { address: new AgentAddress({ host: config.host, tls, publicUrl }), hostGuard: new HostGuard({ host: config.host, publicUrl }), tailscale };
}
