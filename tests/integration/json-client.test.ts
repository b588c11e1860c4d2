import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { CloseCode } from '../../protocol/close-codes.js';
import { JsonClient, type JsonClientOptions } from '../../agent/channels/json-client.js';
import { eventually } from '../support/eventually.js';

const servers: WebSocketServer[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const wss of servers.splice(0)) {
    for (const ws of wss.clients) ws.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

/** A real WebSocket pair on loopback: the agent's end and a client's. */
async function pair(clientOptions: WebSocket.ClientOptions = {}): Promise<{ server: WebSocket; client: WebSocket; messages: string[] }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise((resolve) => wss.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, clientOptions);
  sockets.push(client);
  const messages: string[] = [];
  client.on('message', (data) => messages.push(String(data)));
  await new Promise((resolve) => client.once('open', resolve));
  return { server: await accepted, client, messages };
}

const socketOf = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;
const turn = () => new Promise((resolve) => setImmediate(resolve));
const quiet: JsonClientOptions = { heartbeatIntervalMs: 60_000, heartbeatTimeoutMs: 120_000 };

/** Sends updates to a client that does not read until the agent takes it for behind. */
async function pushUntilBehind(jc: JsonClient, update: string): Promise<void> {
  for (let i = 0; i < 2000 && !jc.behind; i++) {
    jc.send(update);
    await turn();
  }
  expect(jc.behind).toBe(true);
}

describe('JsonClient', () => {
  it('sends one snapshot for any number of requests made while one is on its way', async () => {
    const { server, client, messages } = await pair();
    let built = 0;
    const jc = new JsonClient(server, () => [JSON.stringify({ type: 'snapshot', n: ++built })], quiet);
    for (let i = 0; i < 1000; i++) jc.sendSnapshot();
    await eventually(() => messages.length === 1, 5_000, 'the snapshot');
    expect(built).toBe(1);
    // Once it has left, a new request gets a new snapshot.
    jc.sendSnapshot();
    await eventually(() => messages.length === 2, 5_000, 'the second snapshot');
    expect(JSON.parse(messages[1] as string)).toEqual({ type: 'snapshot', n: 2 });
    client.close();
  });

  it('drops updates for a client that fell behind, and sends it a fresh snapshot once it caught up', async () => {
    const { server, client, messages } = await pair();
    let state = 0;
    const jc = new JsonClient(server, () => [JSON.stringify({ type: 'reset' }), JSON.stringify({ type: 'snapshot', state })], {
      ...quiet,
      limits: { behindBytes: 256 * 1024, caughtUpBytes: 64 * 1024, closeBytes: 1024 * 1024 * 1024 },
    });
    socketOf(client).pause();
    const update = JSON.stringify({ type: 'update', pad: 'x'.repeat(64 * 1024) });
    await pushUntilBehind(jc, update);
    const backlog = server.bufferedAmount;
    for (let i = 0; i < 100; i++) {
      state = i;
      jc.send(update);
      jc.sendSnapshot();
    }
    expect(server.bufferedAmount).toBe(backlog);

    socketOf(client).resume();
    await eventually(() => messages.at(-1)?.includes('"snapshot"'), 10_000, 'a fresh snapshot');
    expect(JSON.parse(messages.at(-2) as string)).toEqual({ type: 'reset' });
    expect(JSON.parse(messages.at(-1) as string)).toEqual({ type: 'snapshot', state: 99 });
    expect(jc.behind).toBe(false);
    // Updates flow again.
    jc.send(JSON.stringify({ type: 'update', n: 1 }));
    await eventually(() => messages.at(-1) === '{"type":"update","n":1}', 5_000, 'the next update');
  });

  it(`closes a client that stays behind too long with ${CloseCode.TooSlow}`, async () => {
    const { server, client } = await pair();
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    const jc = new JsonClient(server, () => ['{}'], { ...quiet, limits: { behindBytes: 64 * 1024, behindTimeoutMs: 50 } });
    socketOf(client).pause();
    await pushUntilBehind(jc, JSON.stringify({ pad: 'x'.repeat(64 * 1024) }));
    await eventually(() => server.readyState === server.CLOSING, 5_000, 'the agent to close the socket');
    socketOf(client).resume();
    expect(await closed).toBe(CloseCode.TooSlow);
  });

  it(`closes a client whose backlog passes the hard limit with ${CloseCode.TooSlow}`, async () => {
    const { server, client } = await pair();
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    // A snapshot of several messages is written whole; the backlog passes the limit within it.
    const part = JSON.stringify({ pad: 'x'.repeat(8 * 1024 * 1024) });
    const jc = new JsonClient(server, () => [part, part, part], { ...quiet, limits: { closeBytes: 1024 * 1024 } });
    socketOf(client).pause();
    jc.sendSnapshot();
    expect(server.readyState).toBe(server.CLOSING);
    socketOf(client).resume();
    expect(await closed).toBe(CloseCode.TooSlow);
  });

  it('delivers one message bigger than the hard limit to a client that reads', async () => {
    const { server, client } = await pair();
    const big = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) });
    const jc = new JsonClient(server, () => [big], { ...quiet, limits: { closeBytes: 1024 * 1024 } });
    const got = new Promise<number>((resolve) => client.once('message', (data) => resolve(String(data).length)));
    jc.sendSnapshot();
    expect(await got).toBe(big.length);
    expect(server.readyState).toBe(server.OPEN);
    client.close();
  });

  it('cuts a client that stops answering pings, and keeps one that answers', async () => {
    const heartbeat = { heartbeatIntervalMs: 20, heartbeatTimeoutMs: 500 };
    const silent = await pair({ autoPong: false });
    const alive = await pair();
    new JsonClient(silent.server, () => ['{}'], heartbeat);
    new JsonClient(alive.server, () => ['{}'], heartbeat);
    let pinged = 0;
    silent.client.on('ping', () => pinged++);
    const code = await new Promise<number>((resolve) => silent.client.once('close', (c) => resolve(c)));
    expect(code).toBe(1006);
    expect(pinged).toBeGreaterThan(0);
    expect(alive.client.readyState).toBe(WebSocket.OPEN);
  });
});
