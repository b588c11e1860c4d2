import { homedir } from 'node:os';
import * as pty from 'node-pty';
import type { WebSocket } from 'ws';
import type { TerminalConnectionView } from '../../protocol/api.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { decodeFrame, FrameType, fitTerminalSize, type TerminalFrame } from '../../protocol/terminal-frame.js';
import { connectionToDrop } from '../util/connection-to-drop.js';
import type { Logger } from '../util/log.js';
import { PtyInput, ptyMaster } from './pty-input.js';
import type { TypingClock } from './typing-clock.js';

/** Pause reading the pty when this much is queued on the socket… */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** …and resume once the queue drains below this. */
export const LOW_WATER_BYTES = 256 * 1024;
/**
 * The most gathered output one frame carries (a single larger read still goes whole): half the
 * low mark. Each frame's write callback is a moment to look at the queue again, so the queue
 * drains in steps and the pty resumes under the low mark, rather than only once a
 * megabyte-long frame has left.
 */
export const GATHERED_FRAME_BYTES = 128 * 1024;
/** Reads that follow each other within this long are one burst of output… */
export const BURST_GAP_MS = 1;
/**
 * …and once a burst has brought this much, it is a flood, not an echo or a screen's redraw…
 */
export const BURST_BYTES = 4 * 1024;
/**
 * …so reading stops this long: the kernel gathers the output meanwhile, the next read takes it
 * at once and one frame carries it. Per read and per frame the agent and the client pay a
 * wake-up and a message; on a busy machine that time is taken from tmux itself.
 */
export const BURST_HOLD_MS = 2;
/**
 * A held burst followed by this long without output: the flood ended, or tmux stopped drawing
 * for this client. Held, the client fell behind tmux's mark (8 × cols × rows bytes), so tmux
 * dropped what it had to draw for it and redraws it only on a 100 ms timer; the agent asks tmux
 * to redraw it now instead, and the end of a flood shows 15 ms after it rather than up to
 * 100 ms. Between flood bursts the same redraw shows the screen as it stands.
 */
export const REDRAW_QUIET_MS = 15;
/**
 * Once a flood has been held, every read until it goes quiet is part of it and starts a hold
 * of this long, however small. tmux, drawing for a client it has fallen behind for, sends a
 * few bytes at a time (a cursor move, a row) a millisecond or two apart: sent one by one they
 * were a thousand messages of 9 bytes in a 20 MB `cat`, each a wake-up for the agent and a
 * task for the page, on the cores tmux needs. Half a 60 Hz frame, so the page still gets
 * something new for every frame it draws, and less than REDRAW_QUIET_MS, so a hold never
 * looks like the flood's end.
 */
export const FLOOD_HOLD_MS = 8;
/**
 * A flood lasts until its output has been quiet this long, or until the person types. Longer
 * than tmux's 100 ms timer for a client it stopped drawing for: between two of its redraws a
 * flood may send nothing for most of that time. A redraw of a phone's screen (48×40) stays
 * under BURST_BYTES, so a flood that ended at each quiet of REDRAW_QUIET_MS was taken up
 * again only by the next large burst, and the trickle between went out read by read: in half
 * the rounds of a 20 MB `cat`, over a thousand messages instead of about 250.
 */
export const FLOOD_QUIET_MS = 150;

const HEARTBEAT_FRAME = Buffer.of(FrameType.Heartbeat);

/** The tty node-pty opened for the `tmux attach` client, which names that client to tmux. */
function clientTty(term: pty.IPty): string | null {
  const name = (term as { ptsName?: unknown }).ptsName;
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * What a browser terminal shows: a tab's tmux session on pocketmux's server, or the pane of a
 * Claude started outside the tabs on the person's own tmux server (terminal-targets.ts).
 */
export interface TerminalTarget {
  /** The tab id or outside session key, for logs and `GET /api/terminals`. */
  id: string;
  /** The `tmux attach` client node-pty runs. */
  spawn: { file: string; args: string[] };
  /** Before text-bar input: out of copy-mode, so the keys reach the program. */
  leaveCopyMode(): Promise<void>;
  /** A kill frame: closes the tab. Null where the agent may not end it (a pane that is the person's). */
  kill: (() => Promise<void>) | null;
  /** After the tmux client exited: whether what it showed ended too. */
  ended(): Promise<boolean>;
  /** Has tmux redraw the `tmux attach` client on this tty now (see REDRAW_QUIET_MS). */
  redraw(clientTty: string): Promise<void>;
}

export interface BridgeOptions {
  log: Logger;
  /** The agent's environment for tmux; the `tmux attach` client gets the browser terminal's TERM on top. */
  env: Record<string, string>;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerDevice: number;
  /** Told of every frame of typed input, so timed work can wait for a pause in the typing. */
  typing?: Pick<TypingClock, 'keystroke'>;
  /** How long a flood lasts after its last output (FLOOD_QUIET_MS unless given). */
  floodQuietMs?: number;
}

/**
 * Input waiting behind tmux (text-bar frames leave copy-mode first) past this stops reading
 * the socket until it is typed, so a client cannot queue input faster than tmux takes it…
 */
export const PAUSE_INPUT_BACKLOG_BYTES = 256 * 1024;
/** …and, should frames already read still pile up, past this the socket is closed. */
export const MAX_INPUT_BACKLOG_BYTES = 1024 * 1024;
/**
 * Input the pty has not taken yet (the program behind it does not read) counts toward the
 * same pause; past this, which a paused socket cannot reach (one more frame of at most 1 MB
 * may still arrive after the pause), the socket is closed.
 */
export const MAX_PTY_PENDING_BYTES = 4 * 1024 * 1024;
/** What a queued frame costs beside its payload, so empty frames are not free. */
const FRAME_OVERHEAD_BYTES = 64;

function frameBytes(frame: TerminalFrame): number {
  if (frame.type === FrameType.WebStdin) return FRAME_OVERHEAD_BYTES + Buffer.byteLength(frame.text);
  if (frame.type === FrameType.Stdin) return FRAME_OVERHEAD_BYTES + frame.data.byteLength;
  return FRAME_OVERHEAD_BYTES;
}

/** WebSocket close reasons must fit in 123 bytes. */
function closeReason(text: string): string {
  return Buffer.byteLength(text) <= 123 ? text : `${text.slice(0, 110)}…`;
}

/** The counters of one connection, as `GET /api/terminals` reports them. */
export type TerminalStats = TerminalConnectionView;

/**
 * One browser terminal: a node-pty running `tmux attach` for the tab, wired to one
 * WebSocket. Output goes out the moment the pty yields it when the socket has nothing in
 * flight and no burst is under way (a keystroke's echo never waits); reads that come while a
 * send is in flight, or during a burst's short hold, are gathered into one frame, and flow
 * control rides the write callbacks.
 */

class TerminalConnection {
  private readonly term: pty.IPty;
  private readonly input: PtyInput;
  private paused = false;
  /** A stdout frame handed to the socket whose write callback has not come back. */
  private sending = false;
  /** Reads that came while a frame was in flight, in order, to go out as the next frame. */
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  /** When the pty was last read (or let go after a hold), and what the burst so far brought. */
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private burstBytes = 0;
  /** Set while a burst's hold keeps the pty from being read. */
  private holdTimer: NodeJS.Timeout | null = null;
  /** Set from a hold's end until what the kernel kept meanwhile has been read (see endHold). */
  private collecting = false;
  private holds = 0;
  /** Armed by a hold, pushed back by every read: fires once a held flood has gone quiet. */
  private redrawTimer: NodeJS.Timeout | null = null;
  /** Set while a flood lasts (armed by its first hold, pushed back by every read, see FLOOD_QUIET_MS). */
  private floodTimer: NodeJS.Timeout | null = null;
  private redrawing = false;
  /**
   * Until then, output is taken for the last redraw's own and arms no other: a redraw whose
   * drawing asked for the next would redraw the screen for as long as the terminal is open.
   */
  private redrawSettlesAt = Number.NEGATIVE_INFINITY;
  private redraws = 0;
  private frames = 0;
  private readonly openedAt = new Date().toISOString();
  private bytesOut = 0;
  private pauses = 0;
  private peakBuffered = 0;
  /** What was queued for the client when the pty was last let go (-1: never held). */
  private queuedAtResume = -1;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly silence: NodeJS.Timeout;
  /**
   * Frames that wait behind a tmux call (web stdin leaves copy-mode first, a kill closes the
   * tab), in arrival order, so input is never reordered.
   */
  private readonly backlog: TerminalFrame[] = [];
  private backlogBytes = 0;
  private inputPaused = false;
  private draining = false;

  constructor(
    readonly ws: WebSocket,
    readonly target: TerminalTarget,
    size: { cols: number; rows: number },
    private readonly opts: BridgeOptions,
    private readonly onClosed: (conn: TerminalConnection) => void,
  ) {
    this.term = pty.spawn(target.spawn.file, target.spawn.args, {
      name: 'xterm-256color',
      cols: size.cols,
      rows: size.rows,
      // The tmux client's own directory does not matter, and the tab's may be gone.
      cwd: homedir(),
      // xterm.js in the browser is what the tmux client draws on.
      env: { ...opts.env, TERM: 'xterm-256color', COLORTERM: 'truecolor' },
      encoding: null,
    });
    const master = ptyMaster(this.term);
    this.input = new PtyInput(master, {
      onDrained: () => this.maybeResumeInput(),
      onError: (err) => opts.log.debug('pty write after exit ignored', { tab: target.id, error: err.message }),
    });
    // No write may follow node-pty's closing of the master, as the descriptor's number can be
    // reused: PtyInput looks before every write, and stops here for good.
    master.onClose(() => this.input.dispose());
    this.term.onData((data) => this.sendOutput(data as unknown as Buffer));
    this.term.onExit(() => void this.onPtyExit());

    this.heartbeat = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.send(HEARTBEAT_FRAME);
    }, opts.heartbeatIntervalMs);
    this.silence = setTimeout(() => this.onSilence(), opts.heartbeatTimeoutMs);

    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => this.dispose());
    ws.on('error', (err) => {
      opts.log.warn('terminal socket error', { tab: target.id, error: err.message });
      this.dispose();
    });
  }

  /**
   * A read goes out at once when no frame is in flight and the output is not a flood: a
   * keystroke's echo leaves the moment it is read. While a frame is in flight, reads are
   * gathered and leave as one frame when its write callback comes back (as ttyd does). Once
   * reads that follow each other within BURST_GAP_MS have brought BURST_BYTES, a hold starts:
   * reading stops for BURST_HOLD_MS, then what the kernel gathered comes in one read; until the
   * flood goes quiet (FLOOD_QUIET_MS) or the person types, any read starts a hold of
   * FLOOD_HOLD_MS. Holding on timing alone held the second half of an echo tmux wrote in two,
   * and with it the next key's echo (p99 up 4 times). On two cores a flood read as it came
   * (about a kilobyte a read) cost the agent and its client twice the CPU, taken
   * from tmux, and ran 0.8 times as fast as node-pty reading tmux directly. Gathering until
   * the end of the loop turn (setImmediate) instead was measured too: it did not raise flood
   * throughput and it worsened keystroke echo p99.
   */
  private sendOutput(data: Buffer): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.bytesOut += data.length;
    const now = performance.now();
    this.burstBytes = now - this.lastReadAt <= BURST_GAP_MS ? this.burstBytes + data.length : data.length;
    this.lastReadAt = now;
    // Armed by the first hold and pushed back by every read since: the flood goes on.
    const flooding = this.floodTimer !== null;
    this.floodTimer?.refresh();
    this.redrawTimer?.refresh();
    if (this.sending || this.holdTimer || this.collecting) {
      this.gather(data);
    } else if (this.burstBytes >= BURST_BYTES || flooding) {
      this.gather(data);
      this.hold(flooding ? FLOOD_HOLD_MS : BURST_HOLD_MS);
    } else {
      this.sendFrame([data], data.length);
    }
    this.checkHighWater();
  }

  private gather(data: Buffer): void {
    this.gathered.push(data);
    this.gatheredBytes += data.length;
  }

  /** Stops reading for `ms`; the flood starts if it had not, and its redraw is armed unless this is a redraw's own output. */
  private hold(ms: number): void {
    this.holds++;
    this.term.pause();
    this.holdTimer = setTimeout(() => this.endHold(), ms);
    this.floodTimer ??= setTimeout(() => {
      this.floodTimer = null;
    }, this.opts.floodQuietMs ?? FLOOD_QUIET_MS);
    const ownRedraw = this.redrawing || performance.now() < this.redrawSettlesAt;
    if (!this.redrawTimer && !ownRedraw) this.redrawTimer = setTimeout(() => this.redrawAfterFlood(), REDRAW_QUIET_MS);
  }

  /**
   * The person typed: the flood is over, so the echo leaves the moment it is read, and what a
   * hold gathered goes now rather than in front of it.
   */
  private endFlood(): void {
    if (this.floodTimer) clearTimeout(this.floodTimer);
    this.floodTimer = null;
    if (this.holdTimer) {
      clearTimeout(this.holdTimer);
      this.endHold();
    }
  }

  /**
   * A held flood went quiet: tmux is asked to redraw this client now rather than on its own
   * timer. Not while flow control holds the pty (the quiet is the agent's own then). The
   * output of the redraw, while it is asked for and for REDRAW_QUIET_MS after, arms no other
   * (see `redrawSettlesAt`). A failure only leaves tmux's timer to do it.
   */
  private redrawAfterFlood(): void {
    this.redrawTimer = null;
    if (this.closed || this.paused || this.redrawing) return;
    const tty = clientTty(this.term);
    if (tty === null) return;
    this.redrawing = true;
    this.redraws++;
    this.target
      .redraw(tty)
      .catch((err: Error) => this.opts.log.debug('tmux could not redraw a terminal after a flood', { tab: this.target.id, error: err.message }))
      .finally(() => {
        this.redrawing = false;
        // tmux draws as it answers: what comes in the next moments is that drawing.
        this.redrawSettlesAt = performance.now() + REDRAW_QUIET_MS;
      });
  }

  /**
   * The hold is over: reading goes on (unless flow control holds the pty), and what was
   * gathered leaves, with what the kernel kept meanwhile. That is read in this same turn of the
   * event loop (its poll phase), so it is sent from setImmediate, which comes right after:
   * sent at once, the read that started the hold went in one frame and what the hold gathered
   * in the kernel in a second, two messages a hold.
   */
  private endHold(): void {
    this.holdTimer = null;
    if (this.closed) return;
    // What waited in the kernel meanwhile is the same burst.
    this.lastReadAt = performance.now();
    if (this.paused) {
      this.sendGatheredIfIdle();
      return;
    }
    this.term.resume();
    this.collecting = true;
    setImmediate(() => {
      this.collecting = false;
      this.sendGatheredIfIdle();
    });
  }

  private sendGatheredIfIdle(): void {
    if (!this.closed && !this.sending && !this.holdTimer && !this.collecting && this.gatheredBytes > 0 && this.ws.readyState === this.ws.OPEN) this.sendGathered();
  }

  /** The oldest gathered reads as one frame, at most GATHERED_FRAME_BYTES (a single larger read goes whole). */
  private sendGathered(): void {
    let length = 0;
    let count = 0;
    for (const part of this.gathered) {
      if (count > 0 && length + part.length > GATHERED_FRAME_BYTES) break;
      length += part.length;
      count++;
    }
    const parts = this.gathered.splice(0, count);
    this.gatheredBytes -= length;
    this.sendFrame(parts, length);
    this.checkHighWater();
  }

  private sendFrame(parts: readonly Buffer[], length: number): void {
    const frame = Buffer.allocUnsafe(1 + length);
    frame[0] = FrameType.Stdout;
    let at = 1;
    for (const part of parts) at += part.copy(frame, at);
    this.sending = true;
    this.frames++;
    this.ws.send(frame, { binary: true }, (err) => this.onSent(err));
  }

  /** The frame in flight left (or failed with the socket): the gathered reads follow it, unless a hold still gathers. */
  private onSent(err: Error | undefined): void {
    this.sending = false;
    if (err || this.closed || this.ws.readyState !== this.ws.OPEN) {
      this.gathered = [];
      this.gatheredBytes = 0;
      return;
    }
    this.sendGatheredIfIdle();
    this.maybeResume();
  }

  /**
   * What a client has yet to take: what the socket holds and what is gathered for it. The
   * high-water mark bounds both together, so gathering never holds more than the socket
   * would have.
   */
  private queuedBytes(): number {
    return this.ws.bufferedAmount + this.gatheredBytes;
  }

  private checkHighWater(): void {
    const queued = this.queuedBytes();
    if (queued > this.peakBuffered) this.peakBuffered = queued;
    if (!this.paused && queued > HIGH_WATER_BYTES) {
      this.paused = true;
      this.pauses++;
      this.term.pause();
    }
  }

  private maybeResume(): void {
    const queued = this.queuedBytes();
    if (this.paused && !this.closed && queued < LOW_WATER_BYTES) {
      this.queuedAtResume = queued;
      this.paused = false;
      // A burst's hold lets the pty go itself when it ends.
      if (!this.holdTimer) this.term.resume();
    }
  }

  /**
   * Nothing read from the client for the heartbeat timeout. A socket paused for input is not
   * read, so its heartbeats go unheard: what stopped then is tmux taking the input, and the
   * close says so rather than blaming the client.
   */
  private onSilence(): void {
    if (this.inputPaused) this.close(CloseCode.InputOverflow, 'input not taken by tmux within the heartbeat timeout');
    else this.close(CloseCode.HeartbeatTimeout, 'no heartbeat from client');
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    this.silence.refresh();
    if (!isBinary) {
      this.close(CloseCode.MalformedFrame, 'terminal frames must be binary');
      return;
    }
    const result = decodeFrame(data);
    if (!result.ok) {
      this.close(CloseCode.MalformedFrame, `malformed frame: ${result.error.message}`);
      return;
    }
    if (result.frame.type === FrameType.Stdout) {
      this.close(CloseCode.MalformedFrame, 'stdout frames only go from the agent to clients');
      return;
    }
    this.enqueue(result.frame);
  }

  private enqueue(frame: TerminalFrame): void {
    if (frame.type === FrameType.Stdin || frame.type === FrameType.WebStdin) {
      this.opts.typing?.keystroke();
      this.endFlood();
    }
    const waitsOnTmux = frame.type === FrameType.WebStdin || frame.type === FrameType.Kill;
    if (!this.draining && !waitsOnTmux) {
      this.apply(frame);
      return;
    }
    this.backlogBytes += frameBytes(frame);
    if (this.backlogBytes > MAX_INPUT_BACKLOG_BYTES) {
      this.close(CloseCode.InputOverflow, 'too much input waiting for tmux');
      return;
    }
    this.backlog.push(frame);
    if (!this.inputPaused && this.backlogBytes > PAUSE_INPUT_BACKLOG_BYTES) {
      this.inputPaused = true;
      this.ws.pause();
    }
    if (!this.draining) void this.drain();
  }

  /**
   * Applies waiting frames in order. A text-bar frame leaves copy-mode first; the frames that
   * queued up behind it meanwhile (up to a kill) share that one exit, so 2,000 text-bar
   * frames cost a handful of tmux runs, not 2,000, however they are interleaved.
   */
  private async drain(): Promise<void> {
    this.draining = true;
    while (this.backlog.length > 0 && !this.closed) {
      const frame = this.backlog.shift() as TerminalFrame;
      this.backlogBytes -= frameBytes(frame);
      if (frame.type === FrameType.WebStdin) {
        const group: TerminalFrame[] = [frame];
        while (this.backlog.length > 0 && this.backlog[0]?.type !== FrameType.Kill) {
          const next = this.backlog.shift() as TerminalFrame;
          this.backlogBytes -= frameBytes(next);
          group.push(next);
        }
        await this.target.leaveCopyMode().catch((err: Error) => this.opts.log.warn('could not leave copy-mode', { tab: this.target.id, error: err.message }));
        this.applyInOneWrite(group);
      } else if (frame.type === FrameType.Kill) {
        if (!this.target.kill) {
          this.opts.log.info('kill from a terminal refused: the pane is not a tab of pocketmux', { tab: this.target.id });
          continue;
        }
        await this.target.kill().catch((err: Error) => {
          this.opts.log.warn('kill from a terminal failed', { tab: this.target.id, error: err.message });
        });
      } else {
        this.apply(frame);
      }
    }
    this.draining = false;
    this.maybeResumeInput();
  }

  /** Reading the socket goes on once nothing waits behind tmux and the pty took all input. */
  private maybeResumeInput(): void {
    if (this.inputPaused && !this.closed && !this.draining && this.input.pendingWrites === 0) {
      this.inputPaused = false;
      this.ws.resume();
    }
  }

  /** Into the pty, in order; past PAUSE_INPUT_BACKLOG_BYTES it has not taken, the socket waits for it. */
  private writeInput(data: Buffer): void {
    this.input.write(data);
    const pending = this.input.pendingBytes + this.input.pendingWrites * FRAME_OVERHEAD_BYTES;
    if (pending > MAX_PTY_PENDING_BYTES) {
      this.close(CloseCode.InputOverflow, 'too much input the terminal does not take');
    } else if (!this.inputPaused && pending > PAUSE_INPUT_BACKLOG_BYTES) {
      this.inputPaused = true;
      this.ws.pause();
    }
  }

  /**
   * Resizes the pty. Its tmux client may have exited a moment ago (the exit is handled on
   * its own); a failing call then must not take the agent down.
   */
  private resize(cols: number, rows: number): void {
    try {
      this.term.resize(cols, rows);
    } catch (err) {
      this.opts.log.debug('pty resize after exit ignored', { tab: this.target.id, error: (err as Error).message });
    }
  }

  /**
   * Applies frames in order, their input gathered into as few pty writes as possible: a
   * write per frame would make tmux read 2,000 small pieces after a burst.
   */
  private applyInOneWrite(frames: readonly TerminalFrame[]): void {
    let pending: Buffer[] = [];
    const flush = () => {
      if (pending.length === 0 || this.closed) return;
      const data = Buffer.concat(pending);
      pending = [];
      this.writeInput(data);
    };
    for (const f of frames) {
      if (f.type === FrameType.WebStdin) pending.push(Buffer.from(f.text, 'utf8'));
      else if (f.type === FrameType.Stdin) pending.push(Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength));
      else {
        flush();
        this.apply(f);
      }
    }
    flush();
  }

  /** Applies a frame that needs no tmux call. */
  private apply(frame: TerminalFrame): void {
    if (this.closed) return;
    switch (frame.type) {
      case FrameType.Stdin:
        this.writeInput(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength));
        return;
      case FrameType.Resize: {
        const size = fitTerminalSize(frame.cols, frame.rows);
        this.resize(size.cols, size.rows);
        return;
      }
      default:
        return;
    }
  }

  private async onPtyExit(): Promise<void> {
    if (this.closed) return;
    let ended = false;
    try {
      ended = await this.target.ended();
    } catch (err) {
      this.opts.log.warn('could not check a session after its terminal exited', { error: (err as Error).message });
    }
    if (ended) this.close(CloseCode.SessionEnded, 'the session ended');
    else this.close(CloseCode.AttachFailed, 'the terminal detached from tmux');
  }

  stats(): TerminalStats {
    return {
      tabId: this.target.id,
      openedAt: this.openedAt,
      bytesOut: this.bytesOut,
      paused: this.paused,
      pauses: this.pauses,
      peakBuffered: this.peakBuffered,
      queued: this.queuedBytes(),
      queuedAtResume: this.queuedAtResume,
      frames: this.frames,
      holds: this.holds,
      redraws: this.redraws,
    };
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) {
      this.ws.close(code, closeReason(reason));
    }
    this.dispose();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.silence);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    this.redrawTimer = null;
    if (this.floodTimer) clearTimeout(this.floodTimer);
    this.floodTimer = null;
    this.input.dispose();
    try {
      // Ends only our `tmux attach` client; the session and its shell live on.
      this.term.kill();
    } catch {
      // Already exited.
    }
    this.onClosed(this);
  }
}

/**
 * All terminal connections of the agent, capped per device and in total (see
 * `connectionToDrop` for who makes room).
 */
export class TerminalBridge {
  /** Oldest first, each with the device that opened it. */
  private readonly connections: { conn: TerminalConnection; device: string }[] = [];

  constructor(private readonly opts: BridgeOptions) {}

  get size(): number {
    return this.connections.length;
  }

  attach(ws: WebSocket, target: TerminalTarget, device: string, size: { cols: number; rows: number }): void {
    const limits = { total: this.opts.maxConnections, perDevice: this.opts.maxConnectionsPerDevice };
    for (;;) {
      const drop = connectionToDrop(
        this.connections.map((c) => c.device),
        device,
        limits,
      );
      if (!drop) break;
      const [victim] = this.connections.splice(drop.index, 1);
      victim?.conn.close(
        CloseCode.ConnectionLimit,
        drop.cap === 'device'
          ? `this device has ${limits.perDevice} terminals open, its most: this, its oldest, was dropped`
          : `the agent serves ${limits.total} terminals at most: this, the oldest of the device with the most, was dropped`,
      );
    }
    try {
      const conn = new TerminalConnection(ws, target, size, this.opts, (c) => {
        const i = this.connections.findIndex((entry) => entry.conn === c);
        if (i >= 0) this.connections.splice(i, 1);
      });
      this.connections.push({ conn, device });
    } catch (err) {
      this.opts.log.error('could not start a terminal', { tab: target.id, error: (err as Error).message });
      ws.close(CloseCode.AttachFailed, closeReason(`could not attach: ${(err as Error).message}`));
    }
  }

  stats(): TerminalStats[] {
    return this.connections.map((c) => c.conn.stats());
  }

  closeAll(code: number, reason: string): void {
    for (const { conn } of [...this.connections]) conn.close(code, reason);
  }
}
