import { timingSafeEqual } from 'node:crypto';
import { newSecret } from '../util/ids.js';

/**
 * The one-time token in the URL the agent prints: whoever opens it first gets a device
 * credential. It works once; a new one is made at every agent start.
 */
export class LinkToken {
  private token: string | null = newSecret();

  /** The token to print, or null once used. */
  peek(): string | null {
    return this.token;
  }

  /** True (and the token is spent) when `candidate` is the live token. */
  redeem(candidate: string): boolean {
    if (this.token === null) return false;
    const a = Buffer.from(candidate, 'utf8');
    const b = Buffer.from(this.token, 'utf8');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
    this.token = null;
    return true;
  }
}
