/**
 * The push sender against a push endpoint of the tests' own on loopback (real HTTP, VAPID
 * checked, the body decrypted): what was decided before the agent stops still leaves.
 */
import webpush from 'web-push';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PushSender } from '../../../../agent/push/push-sender.js';
import { closePush, testPush } from '../../../../agent/push/push-payloads.js';
import { createLogger } from '../../../../agent/util/log.js';
import { recordingLogger } from '../../../support/recording-logger.js';
import { PushEndpoint } from '../../../support/push-endpoint.js';

const log = createLogger({ stderr: false });

describe('PushSender', () => {
  let endpoint: PushEndpoint;
  let sender: PushSender;

  beforeEach(async () => {
    endpoint = await PushEndpoint.start();
    const keys = webpush.generateVAPIDKeys();
    endpoint.agentKey = keys.publicKey;
    sender = new PushSender({ version: 1, ...keys, subject: 'mailto:test@localhost' }, log, { concurrency: 1, maxQueued: 10, retryDelaysMs: [1_000], timeoutMs: 5_000 });
  });
  afterEach(async () => {
    await sender.dispose();
    await endpoint.close();
  });

  it('delivers the pushes queued when it is stopped, then takes no more', async () => {
    const a = endpoint.subscribe();
    // One at a time: the second and third still wait in the queue when the stop comes.
    sender.send(a.json, testPush(), 60);
    sender.send(a.json, { ...testPush(), tag: 'second' }, 60);
    sender.send(a.json, closePush('third'), 60);
    await sender.dispose();
    expect(endpoint.of(a.id).map((p) => p.tag)).toEqual(['test', 'second', 'third']);
    sender.send(a.json, { ...testPush(), tag: 'after' }, 60);
    await sender.dispose();
    expect(endpoint.of(a.id).map((p) => p.tag)).toEqual(['test', 'second', 'third']);
  });

  it('does not try a failed push again once stopped, and says it gave up', async () => {
    const lines = recordingLogger();
    const stopping = new PushSender({ version: 1, ...webpush.generateVAPIDKeys(), subject: 'mailto:test@localhost' }, lines, { concurrency: 1, maxQueued: 10, retryDelaysMs: [1_000], timeoutMs: 5_000 });
    endpoint.agentKey = undefined;
    const a = endpoint.subscribe();
    endpoint.answer.set(a.id, 503);
    stopping.send(a.json, testPush(), 60);
    await stopping.dispose();
    expect(endpoint.received.filter((r) => r.subscription === a.id)).toHaveLength(1);
    expect(lines.lines).toEqual([{ message: 'gave up on a push', fields: { reason: 'HTTP 503', attempts: 1, service: `127.0.0.1:${endpoint.port}` } }]);
  });
});
