import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import webpush from 'web-push';
import type { PushPayload } from '../../protocol/push.js';
import type { Logger } from '../util/log.js';
import type { VapidKeys } from './vapid.js';
import type { Disposable } from '../util/disposable.js';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushSenderLimits {
  /** Requests in flight at once; the rest wait in the queue. */
  concurrency: number;
  /** Pushes waiting at most; past it the oldest is dropped (and counted). */
  maxQueued: number;
  /** Waits before each retry of a push that failed for a reason that may pass. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}

export const PUSH_SENDER_LIMITS: PushSenderLimits = { concurrency: 8, maxQueued: 500, retryDelaysMs: [1_000, 5_000, 30_000], timeoutMs: 10_000 };

interface Job {
  target: PushTarget;
  payload: PushPayload;
  /** How long the push service may keep it for a device that is offline, in seconds. */
  ttl: number;
  attempt: number;
}

/** How long a stopping agent gives the pushes it decided to leave. */
export const FLUSH_MS = 2_000;

/** A push service's answer that says the subscription no longer exists. */
const GONE = new Set([404, 410]);

/**
 * Sends pushes, encrypted with the subscription's keys (aes128gcm) and signed with the agent's
 * VAPID key, never on the caller's time: `send` queues and returns. Transient failures are
 * retried with backoff; a subscription the service says is gone is reported (`gone`) to be
 * dropped. A `close` for a tag replaces a `show` of that tag still waiting for the same device.
 */
export class PushSender extends EventEmitter<{ gone: [string]; delivered: [PushTarget, PushPayload] }> implements Disposable {
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private dropped = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Called once the queue and the requests in flight are done, while a stop waits for them. */
  private drained: (() => void) | null = null;

  constructor(
    private readonly vapid: VapidKeys,
    private readonly log: Logger,
    private readonly limits: PushSenderLimits = PUSH_SENDER_LIMITS,
  ) {
    super();
  }

  send(target: PushTarget, payload: PushPayload, ttl: number): void {
    if (this.closed) return;
    if (payload.kind === 'close') {
      const waiting = this.queue.findIndex((j) => j.target.endpoint === target.endpoint && j.payload.kind === 'show' && j.payload.tag === payload.tag);
      if (waiting >= 0) this.queue.splice(waiting, 1);
    }
    this.queue.push({ target, payload, ttl, attempt: 0 });
    if (this.queue.length > this.limits.maxQueued) {
      this.queue.shift();
      if (this.dropped++ % 100 === 0) this.log.warn('push queue full; dropped the oldest push', { dropped: this.dropped });
    }
    this.pump();
  }

  /**
   * No new pushes and no more retries; what was decided before the stop still leaves (each
   * once), for at most FLUSH_MS: a push the agent counted as sent (a linked machine's, which
   * is not sent twice across restarts) is not dropped by the stop that came right after it.
   */
  dispose(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => {
      const deadline = setTimeout(() => {
        this.queue.length = 0;
        this.drained = null;
        resolve();
      }, FLUSH_MS);
      this.drained = () => {
        clearTimeout(deadline);
        this.drained = null;
        resolve();
      };
    });
  }

  private idle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }

  private pump(): void {
    while (this.inFlight < this.limits.concurrency) {
      const job = this.queue.shift();
      if (!job) break;
      this.inFlight++;
      void this.deliver(job).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    if (this.idle()) this.drained?.();
  }

  private async deliver(job: Job): Promise<void> {
    let status: number;
    try {
      status = await this.post(job);
    } catch (err) {
      this.retry(job, (err as Error).message);
      return;
    }
    if (status >= 200 && status < 300) {
      this.emit('delivered', job.target, job.payload);
      return;
    }
    if (GONE.has(status)) {
      this.log.info('a push subscription is gone; dropped it', { status, service: new URL(job.target.endpoint).host });
      this.emit('gone', job.target.endpoint);
      return;
    }
    if (status === 429 || status >= 500) {
      this.retry(job, `HTTP ${status}`);
      return;
    }
    this.log.warn('a push service refused a push', { status, service: new URL(job.target.endpoint).host });
  }

  private retry(job: Job, reason: string): void {
    const delay = this.limits.retryDelaysMs[job.attempt];
    if (delay === undefined || this.closed) {
      this.log.warn('gave up on a push', { reason, attempts: job.attempt + 1, service: new URL(job.target.endpoint).host });
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed) return;
      this.queue.push({ ...job, attempt: job.attempt + 1 });
      this.pump();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** One request; resolves with the push service's status. */
  private post(job: Job): Promise<number> {
    const details = webpush.generateRequestDetails({ endpoint: job.target.endpoint, keys: job.target.keys }, JSON.stringify(job.payload), {
      vapidDetails: { subject: this.vapid.subject, publicKey: this.vapid.publicKey, privateKey: this.vapid.privateKey },
      TTL: job.ttl,
      urgency: job.payload.kind === 'show' ? 'high' : 'normal',
      // The service keeps only the latest message of a topic for an offline device: a close
      // replaces the show it closes.
      topic: job.payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || undefined,
      contentEncoding: 'aes128gcm',
    });
    const url = new URL(details.endpoint);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: details.method, headers: details.headers, timeout: this.limits.timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(details.body);
    });
  }
}
