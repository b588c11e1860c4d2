import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, FINAL_CLOSE_CODES } from '../../../../protocol/close-codes.js';
import { Backoff } from '../../../../pwa/core/backoff.js';
import {
  type ConnectionState,
  closeVerdict,
  type Liveness,
  PROBE_TIMEOUT_MS,
  ReconnectingSocket,
  type SocketData,
  type SocketEnvironment,
  type SocketLike,
} from '../../../../pwa/core/reconnecting-socket.js';

/** A browser WebSocket as the page sees it, driven from the test as the agent and the network would. */
class FakeSocket implements SocketLike {
  readyState = 0;
  binaryType: BinaryType = 'blob';
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  readonly sent: SocketData[] = [];
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly path: string) {}

  send(data: SocketData): void {
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    this.readyState = 3;
    this.closedWith = { code, reason };
  }

  accept(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  say(data: unknown): void {
    this.onmessage?.({ data } as MessageEvent);
  }

  drop(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }
}

class FakePage implements SocketEnvironment {
  readonly sockets: FakeSocket[] = [];
  readonly wakeListeners = new Set<(awayMs: number) => void>();
  accessChecks = 0;
  accessLost = 0;

  open(path: string): FakeSocket {
    const socket = new FakeSocket(path);
    this.sockets.push(socket);
    return socket;
  }

  watchWake(wake: (awayMs: number) => void): () => void {
    this.wakeListeners.add(wake);
    return () => this.wakeListeners.delete(wake);
  }

  wake(awayMs = 0): void {
    for (const wake of [...this.wakeListeners]) wake(awayMs);
  }

  checkAccess(): void {
    this.accessChecks++;
  }

  reportAccessLost(): void {
    this.accessLost++;
  }

  get last(): FakeSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }
}

let page: FakePage;
let states: ConnectionState[];
let messages: unknown[];

function socketWith(liveness: Liveness = { probe: () => 'ping' }, extra: { binary?: boolean; path?: () => string } = {}): ReconnectingSocket {
  const socket = new ReconnectingSocket({
    path: extra.path ?? (() => '/api/test'),
    binary: extra.binary,
    liveness,
    onMessage: (data) => messages.push(data),
    onState: (state) => states.push(state),
    environment: page,
  });
  socket.start();
  return socket;
}

/** Opens the current attempt and has the agent say hello on it. */
function established(): FakeSocket {
  page.last.accept();
  page.last.say('hello');
  return page.last;
}

beforeEach(() => {
  vi.useFakeTimers();
  page = new FakePage();
  states = [];
  messages = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Backoff', () => {
  it('doubles from half a second up to its cap, and starts over after reset', () => {
    const backoff = new Backoff();
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
    const slow = new Backoff(1000, 3000);
    expect([slow.next(), slow.next(), slow.next(), slow.next()]).toEqual([1000, 2000, 3000, 3000]);
  });
});

describe('closeVerdict', () => {
  it('ends on the final codes, loses access on 4401, and retries on anything else', () => {
    for (const code of FINAL_CLOSE_CODES) expect(closeVerdict(code)).toBe(code === CloseCode.DeviceRevoked ? 'access-lost' : 'final');
    for (const code of [1000, 1001, 1006, 1011, CloseCode.HeartbeatTimeout, CloseCode.AgentShutdown, CloseCode.AttachFailed, CloseCode.TooSlow, CloseCode.InputOverflow]) {
      expect(closeVerdict(code)).toBe('retry');
    }
  });
});

describe('ReconnectingSocket', () => {
  it('connects on start, says when it is open, and hands every message on', () => {
    const socket = socketWith();
    expect(states).toEqual([{ kind: 'connecting' }]);
    expect(page.sockets.map((s) => s.path)).toEqual(['/api/test']);
    expect(socket.send('early')).toBe(false);
    page.last.accept();
    expect(states.at(-1)).toEqual({ kind: 'open' });
    page.last.say('one');
    page.last.say('two');
    expect(messages).toEqual(['one', 'two']);
    expect(socket.send('x')).toBe(true);
    expect(page.last.sent).toEqual(['x']);
  });

  it('retries an agent that does not answer with growing waits, counting the failures, and asks why', () => {
    socketWith();
    for (const [i, wait] of [500, 1000, 2000, 4000, 8000, 10_000, 10_000].entries()) {
      page.last.drop(1006);
      expect(states.at(-1)).toEqual({ kind: 'reconnecting', failures: i + 1 });
      expect(page.accessChecks).toBe(i + 1);
      vi.advanceTimersByTime(wait - 1);
      expect(page.sockets).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
      expect(page.sockets).toHaveLength(i + 2);
    }
  });

  it('starts over from the shortest wait once the agent said something, not when the socket merely opened', () => {
    socketWith();
    page.last.drop(1006);
    vi.advanceTimersByTime(500);
    // Opened, then closed before a word: an attach that failed.
    page.last.accept();
    page.last.drop(CloseCode.AttachFailed);
    expect(states.at(-1)).toEqual({ kind: 'reconnecting', failures: 2 });
    expect(page.accessChecks).toBe(1);
    vi.advanceTimersByTime(999);
    expect(page.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    established().drop(CloseCode.TooSlow);
    expect(states.at(-1)).toEqual({ kind: 'reconnecting', failures: 0 });
    vi.advanceTimersByTime(500);
    expect(page.sockets).toHaveLength(4);
  });

  it('reconnects after the agent closed a slow reader, overflowing input, a shutdown or a heartbeat timeout', () => {
    socketWith();
    for (const code of [CloseCode.TooSlow, CloseCode.InputOverflow, CloseCode.AgentShutdown, CloseCode.HeartbeatTimeout]) {
      const before = page.sockets.length;
      established().drop(code);
      expect(states.at(-1)?.kind).toBe('reconnecting');
      vi.advanceTimersByTime(500);
      expect(page.sockets).toHaveLength(before + 1);
    }
  });

  for (const code of [...FINAL_CLOSE_CODES].filter((c) => c !== CloseCode.DeviceRevoked)) {
    it(`stops for good after close code ${code}, and ignores waking up`, () => {
      socketWith();
      established().drop(code, 'why');
      expect(states.at(-1)).toEqual({ kind: 'closed-final', code, reason: 'why' });
      page.wake(60_000);
      vi.advanceTimersByTime(60_000);
      expect(page.sockets).toHaveLength(1);
      expect(page.wakeListeners.size).toBe(0);
      expect(page.accessLost).toBe(0);
    });
  }

  it('reports lost access on 4401 and never knocks again', () => {
    const socket = socketWith();
    established().drop(CloseCode.DeviceRevoked, 'device revoked');
    expect(states.at(-1)).toEqual({ kind: 'access-lost' });
    expect(page.accessLost).toBe(1);
    page.wake();
    socket.reconnectNow();
    vi.advanceTimersByTime(60_000);
    expect(page.sockets).toHaveLength(1);
  });

  it('tries again at once when the page wakes or the person asks, instead of waiting out the backoff', () => {
    const socket = socketWith();
    for (let i = 0; i < 4; i++) {
      page.last.drop(1006);
      vi.runOnlyPendingTimers();
    }
    page.last.drop(1006);
    expect(page.sockets).toHaveLength(5);
    page.wake();
    expect(page.sockets).toHaveLength(6);
    page.last.drop(1006);
    socket.reconnectNow();
    expect(page.sockets).toHaveLength(7);
    // The abandoned wait does not open a second socket later.
    established();
    vi.advanceTimersByTime(60_000);
    expect(page.sockets).toHaveLength(7);
    socket.reconnectNow();
    expect(page.sockets).toHaveLength(7);
  });

  it('probes an open socket on waking, and replaces it when no answer comes', () => {
    socketWith({ probe: () => 'are you there' });
    const first = established();
    page.wake();
    expect(first.sent).toEqual(['are you there']);
    vi.advanceTimersByTime(PROBE_TIMEOUT_MS - 1);
    first.say('yes');
    vi.advanceTimersByTime(PROBE_TIMEOUT_MS);
    expect(page.sockets).toHaveLength(1);

    page.wake();
    // A second wake while a probe waits sends nothing more.
    page.wake();
    expect(first.sent).toHaveLength(2);
    vi.advanceTimersByTime(PROBE_TIMEOUT_MS);
    expect(first.closedWith?.code).toBe(4000);
    expect(page.sockets).toHaveLength(2);
    expect(states.at(-1)).toEqual({ kind: 'reconnecting', failures: 0 });
    // The dead socket's late close changes nothing.
    first.drop(1006);
    established();
    expect(states.at(-1)).toEqual({ kind: 'open' });
  });

  it('replaces a socket silent for longer than its heartbeat allows, when the page wakes', () => {
    socketWith({ silentLimitMs: 40_000 });
    const first = established();
    vi.advanceTimersByTime(30_000);
    page.wake();
    expect(page.sockets).toHaveLength(1);
    first.say('heartbeat');
    vi.advanceTimersByTime(40_001);
    page.wake();
    expect(page.sockets).toHaveLength(2);
    expect(first.sent).toEqual([]);
  });

  it('replaces a socket with no way to prove itself after the page was hidden long enough', () => {
    socketWith({ awayLimitMs: 20_000 });
    established();
    page.wake(20_000);
    expect(page.sockets).toHaveLength(1);
    page.wake(20_001);
    expect(page.sockets).toHaveLength(2);
  });

  it('asks for the path before every attempt and receives binary as ArrayBuffers when told', () => {
    let n = 0;
    socketWith({ silentLimitMs: 1 }, { binary: true, path: () => `/api/terminal?n=${++n}` });
    page.last.drop(1006);
    vi.advanceTimersByTime(500);
    expect(page.sockets.map((s) => [s.path, s.binaryType])).toEqual([
      ['/api/terminal?n=1', 'arraybuffer'],
      ['/api/terminal?n=2', 'arraybuffer'],
    ]);
  });

  it('closes on stop, ignores the late close, and connects afresh when started again', () => {
    const socket = socketWith();
    const first = established();
    socket.stop();
    expect(first.closedWith).toEqual({ code: 1000, reason: 'closed' });
    first.drop(1000);
    page.wake();
    vi.advanceTimersByTime(60_000);
    expect(page.sockets).toHaveLength(1);
    expect(page.wakeListeners.size).toBe(0);
    expect(socket.send('x')).toBe(false);

    states.length = 0;
    socket.start();
    expect(states).toEqual([{ kind: 'connecting' }]);
    expect(page.sockets).toHaveLength(2);
    expect(page.wakeListeners.size).toBe(1);
  });
});
