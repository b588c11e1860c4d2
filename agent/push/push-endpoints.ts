/**
 * Which push endpoints the agent will POST to. A subscription's endpoint comes from a device, and
 * the agent makes requests to it from inside this machine's network, so only the push services
 * browsers use are accepted: anything else would let a paired device point the agent at an
 * internal address.
 */

/** Host names (and their subdomains) of the push services of Chrome, Firefox, Safari and Edge. */
export const KNOWN_PUSH_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com'] as const;

export interface EndpointRules {
  /** More push service host names, from `POCKETMUX_PUSH_HOSTS` (comma-separated). */
  extraHosts: readonly string[];
  /** Also `http://127.0.0.1:<port>/…` (`POCKETMUX_PUSH_INSECURE_LOOPBACK=1`), for tests. */
  insecureLoopback: boolean;
}

function hostMatches(host: string, allowed: string): boolean {
  return host === allowed || host.endsWith(`.${allowed}`);
}

/** Null when the agent may send to `endpoint`, else why not. */
export function endpointProblem(endpoint: string, rules: EndpointRules): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'the endpoint is not a URL';
  }
  if (url.username || url.password) return 'the endpoint must not carry credentials';
  if (rules.insecureLoopback && url.protocol === 'http:' && url.hostname === '127.0.0.1' && url.port !== '') return null;
  if (url.protocol !== 'https:') return 'the endpoint must be https';
  if (url.port !== '' && url.port !== '443') return 'the endpoint must use the standard https port';
  const host = url.hostname.toLowerCase();
  if (![...KNOWN_PUSH_HOSTS, ...rules.extraHosts].some((allowed) => hostMatches(host, allowed.toLowerCase()))) {
    return `${host} is not a known push service (known: ${[...KNOWN_PUSH_HOSTS, ...rules.extraHosts].join(', ')}; add one with POCKETMUX_PUSH_HOSTS)`;
  }
  return null;
}
