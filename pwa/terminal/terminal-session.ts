import '@xterm/xterm/css/xterm.css';
import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import { type ITheme, Terminal } from '@xterm/xterm';
import { FrameType } from '../../protocol/terminal-frame.js';
import type { ConnectionState } from '../shared/reconnecting-socket.js';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';
import { TerminalConnection } from './terminal-connection.js';

const THEME: ITheme = {
  background: '#0e1116',
  foreground: '#e6edf3',
  cursor: '#5ed3a6',
  cursorAccent: '#0e1116',
  selectionBackground: '#33506a',
  black: '#1d242e',
  red: '#f2777a',
  green: '#5ed3a6',
  yellow: '#e8c266',
  blue: '#6cb6ff',
  magenta: '#d59cf6',
  cyan: '#56d4dd',
  white: '#c9d1d9',
  brightBlack: '#6e7781',
  brightRed: '#ff9492',
  brightGreen: '#7ee2b8',
  brightYellow: '#f5d787',
  brightBlue: '#91cbff',
  brightMagenta: '#e2b6ff',
  brightCyan: '#85e5ec',
  brightWhite: '#f0f6fc',
};

const FONT = 'ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace';

export interface TerminalSessionOptions {
  tabId: string;
  /** An element in the document's light DOM, so xterm's stylesheet applies inside it. */
  host: HTMLElement;
  fontSize: number;
  onState(state: ConnectionState): void;
  onTitle(title: string): void;
}

/** One tab on screen: an xterm.js terminal wired to the tab's socket. */
export class TerminalSession implements Disposable {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly connection: TerminalConnection;
  private readonly store = new DisposableStore();
  private readonly encoder = new TextEncoder();
  private transformInput: ((data: string) => string) | null = null;
  private fitFrame = 0;
  private readonly host: HTMLElement;

  constructor(opts: TerminalSessionOptions) {
    this.host = opts.host;
    this.term = this.store.add(
      new Terminal({
        allowProposedApi: true,
        cursorBlink: true,
        fontFamily: FONT,
        fontSize: opts.fontSize,
        lineHeight: 1.15,
        theme: THEME,
        // tmux owns the history (copy-mode); xterm only ever shows tmux's screen.
        scrollback: 0,
        macOptionClickForcesSelection: true,
        rightClickSelectsWord: true,
      }),
    );
    const term = this.term;
    term.loadAddon(this.fit);
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    term.loadAddon(new WebLinksAddon());
    term.open(opts.host);
    this.loadWebgl();
    this.fitNow();

    this.connection = this.store.add(
      new TerminalConnection({
        tabId: opts.tabId,
        size: () => ({ cols: term.cols, rows: term.rows }),
        onOutput: (data, afterReconnect) => {
          // tmux redraws the whole screen on attach; start from a clean slate so nothing stale remains.
          if (afterReconnect) term.reset();
          term.write(data);
        },
        onState: (state) => opts.onState(state),
      }),
    );

    this.store.add(
      term.onData((data) => {
        const out = this.transformInput ? this.transformInput(data) : data;
        this.connection.send({ type: FrameType.Stdin, data: this.encoder.encode(out) });
      }),
    );
    this.store.add(
      term.onBinary((data) => {
        const bytes = new Uint8Array(data.length);
        for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
        this.connection.send({ type: FrameType.Stdin, data: bytes });
      }),
    );
    this.store.add(term.onResize(({ cols, rows }) => this.connection.send({ type: FrameType.Resize, cols, rows })));
    this.store.add(term.onTitleChange((title) => opts.onTitle(title)));

    const observer = new ResizeObserver(() => this.scheduleFit());
    observer.observe(opts.host);
    this.store.add(toDisposable(() => observer.disconnect()));
    this.store.add(toDisposable(() => cancelAnimationFrame(this.fitFrame)));

    this.connection.start();
  }

  /** WebGL draws faster, but needs a GPU context; the DOM renderer is the fallback. */
  private loadWebgl(): void {
    try {
      const webgl = new WebglAddon();
      webgl.onContextLoss(() => webgl.dispose());
      this.term.loadAddon(webgl);
    } catch {
      // No WebGL2 here; the DOM renderer keeps working.
    }
  }

  private scheduleFit(): void {
    cancelAnimationFrame(this.fitFrame);
    this.fitFrame = requestAnimationFrame(() => this.fitNow());
  }

  private fitNow(): void {
    // A hidden or zero-sized host would shrink the terminal to nothing; keep the last size.
    if (this.host.clientWidth === 0 || this.host.clientHeight === 0 || !this.fit.proposeDimensions()) return;
    this.fit.fit();
  }

  /** Input from the key bar: sent as if typed. */
  sendKeys(data: string): void {
    this.connection.send({ type: FrameType.Stdin, data: this.encoder.encode(data) });
  }

  /** A line from the input bar: the agent leaves copy-mode first, then Enter submits it. */
  sendLine(text: string): void {
    if (text) this.connection.send({ type: FrameType.WebStdin, text });
    this.connection.send({ type: FrameType.Stdin, data: this.encoder.encode('\r') });
  }

  /** Lets the key bar's sticky Ctrl change the next typed key. */
  setInputTransform(fn: ((data: string) => string) | null): void {
    this.transformInput = fn;
  }

  get applicationCursorKeys(): boolean {
    return this.term.modes.applicationCursorKeysMode;
  }

  reconnectNow(): void {
    this.connection.reconnectNow();
  }

  focus(): void {
    this.term.focus();
  }

  dispose(): void {
    this.store.dispose();
  }
}
