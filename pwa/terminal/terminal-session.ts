import '@xterm/xterm/css/xterm.css';
import './find-bar.js';
import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import { Terminal } from '@xterm/xterm';
import { FrameType } from '../../protocol/terminal-frame.js';
import { localEchoChosen } from '../core/local-echo-choice.js';
import type { ConnectionState } from '../core/reconnecting-socket.js';
import { currentTheme, onThemeChange, type Theme } from '../ui/theme.js';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';
import { HistorySnapshot } from './history-snapshot.js';
import type { HistoryState } from './history-text.js';
import { openLink } from './links.js';
import { LocalEchoView } from './local-echo-view.js';
import { osc52Text } from './osc52.js';
import { TerminalConnection } from './terminal-connection.js';
import { TerminalFinder } from './terminal-finder.js';
import { matchShortcut, onMac, type TerminalAction } from './terminal-shortcuts.js';
import { terminalTheme } from './terminal-theme.js';
import { type WebglFault, WebglWatch } from './webgl-watch.js';

const FONT = 'ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace';
const LINE_HEIGHT = 1.15;

/**
 * No scrollback of xterm's own: tmux draws in the alternate screen and keeps the history (copy
 * mode, the mouse wheel). A scrollback kept here was reflowed by xterm at every change of
 * width, joining lines tmux had drawn apart (seen in Chromium's headless shell), so find
 * searches the history tmux keeps, captured when find opens (history-snapshot.ts).
 */
const SCROLLBACK_LINES = 0;

/**
 * Before a new socket's first output: a soft reset (modes, attributes, scroll region) and a
 * cleared screen, for tmux to redraw on. Unlike a full reset it keeps the scrollback, so what
 * find reaches survives a dropped connection. tmux sets the modes it wants right after.
 */
const BEFORE_REDRAW = '\x1b[!p\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[H\x1b[2J';

const MAC = onMac();

/** What each fault of the WebGL watch means, for the console. */
const FAULT_TEXT: Record<WebglFault, string> = {
  size: 'draws at the wrong size and leaves the screen blank',
  blank: 'draws nothing',
  slow: 'draws too slowly',
};

export type Renderer = 'webgl' | 'dom';

/** The shortcuts the view carries out; the session copies and pastes itself. */
export type ViewShortcut = Exclude<TerminalAction, 'copy' | 'paste'>;

export interface TerminalSessionOptions {
  tabId: string;
  /** An element in the document's light DOM, so xterm's stylesheet applies inside it. */
  host: HTMLElement;
  fontSize: number;
  onState(state: ConnectionState): void;
  onTitle(title: string): void;
  /** A shortcut pressed in the terminal (terminal-shortcuts.ts). */
  onShortcut(action: ViewShortcut): void;
}

/** Whether this browser can make a WebGL2 context (what xterm's WebGL renderer needs). */
function webglAvailable(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

/**
 * Set once a terminal on this page gave WebGL up: the next terminals start with the DOM renderer
 * rather than showing a blank screen first, and the console hears of it once.
 */
let webglGivenUp = false;

/** Copies through the Clipboard API where the page may (a secure context); false where it may not. */
function writeClipboard(text: string): boolean {
  if (!navigator.clipboard?.writeText) return false;
  navigator.clipboard.writeText(text).catch(() => {
    // Refused (no focus, or no permission): the selection stays for Ctrl+Shift+C or the menu.
  });
  return true;
}

/**
 * One tab on screen: an xterm.js terminal wired to the tab's socket, with find, links, copy on
 * selection, bracketed paste, the app's theme, and WebGL drawing where the browser has it. The
 * renderer in use is on the host element as `data-renderer` (`webgl` or `dom`).
 */
export class TerminalSession implements Disposable {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly connection: TerminalConnection;
  private readonly store = new DisposableStore();
  private readonly encoder = new TextEncoder();
  private transformInput: ((data: string) => string) | null = null;
  private fitFrame = 0;
  private readonly host: HTMLElement;
  /** Set when the selection changes; a mouse selection is copied when the button comes up. */
  private selectionMoved = false;
  readonly finder: TerminalFinder;
  /** Typed characters drawn before their echo comes back (local-echo.ts). */
  private readonly localEcho: LocalEchoView;
  /** The pane's history over the terminal while find is open. */
  private history: { snapshot: HistorySnapshot; host: HTMLElement } | null = null;

  constructor(private readonly opts: TerminalSessionOptions) {
    this.host = opts.host;
    const theme = currentTheme();
    this.term = this.store.add(
      new Terminal({
        allowProposedApi: true,
        // A steady cursor: xterm's DOM renderer blinks with an endless CSS animation, which has
        // the browser draw a frame every 16 ms while the terminal is focused (a phone's battery,
        // and each key waiting for a frame clock that is already running). styles.css keeps a
        // blink that a program asks for (DECSCUSR) still as well.
        cursorBlink: false,
        fontFamily: FONT,
        fontSize: opts.fontSize,
        lineHeight: LINE_HEIGHT,
        theme: terminalTheme(theme),
        scrollback: SCROLLBACK_LINES,
        macOptionClickForcesSelection: true,
        rightClickSelectsWord: true,
        // OSC 8 hyperlinks open as printed links do: http(s) only, in a new tab.
        linkHandler: { activate: (_event, text) => openLink(text), allowNonHttpProtocols: false },
      }),
    );
    const term = this.term;
    // Before any output is parsed: tmux's first bytes switch screens.
    term.loadAddon(this.fit);
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    term.loadAddon(new WebLinksAddon((_event, uri) => openLink(uri)));
    this.finder = new TerminalFinder(term, theme);
    term.open(opts.host);
    this.loadWebgl();
    this.fitNow();
    this.localEcho = this.store.add(
      new LocalEchoView(term, {
        colours: () => {
          const t = term.options.theme ?? {};
          return { foreground: t.foreground ?? '#ffffff', background: t.background ?? '#000000', cursor: t.cursor ?? t.foreground ?? '#ffffff' };
        },
        enabled: () => localEchoChosen(),
      }),
    );

    this.connection = this.store.add(
      new TerminalConnection({
        tabId: opts.tabId,
        size: () => ({ cols: term.cols, rows: term.rows }),
        onOutput: (data, afterReconnect) => {
          // tmux redraws the whole screen on attach; nothing of the old socket's screen may remain.
          if (afterReconnect) {
            this.localEcho.reset();
            term.write(BEFORE_REDRAW);
          }
          term.write(data);
        },
        onState: (state) => opts.onState(state),
      }),
    );

    this.store.add(
      term.onData((data) => {
        const out = this.transformInput ? this.transformInput(data) : data;
        // Keys typed while the socket is down are not sent: nothing would echo them.
        if (this.connection.isOpen) this.localEcho.typed(out);
        else this.localEcho.reset();
        this.connection.send({ type: FrameType.Stdin, data: this.encoder.encode(out) });
      }),
    );
    this.store.add(
      term.onBinary((data) => {
        const bytes = new Uint8Array(data.length);
        for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
        this.localEcho.reset();
        this.connection.send({ type: FrameType.Stdin, data: bytes });
      }),
    );
    this.store.add(
      term.onResize(({ cols, rows }) => {
        this.connection.send({ type: FrameType.Resize, cols, rows });
        this.history?.snapshot.setCols(cols);
      }),
    );
    this.store.add(term.onTitleChange((title) => opts.onTitle(title)));
    term.attachCustomKeyEventHandler((e) => this.onKey(e));
    this.watchSelection();
    this.store.add(toDisposable(onThemeChange((t) => this.setTheme(t))));

    const observer = new ResizeObserver(() => this.scheduleFit());
    observer.observe(opts.host);
    this.store.add(toDisposable(() => observer.disconnect()));
    this.store.add(toDisposable(() => cancelAnimationFrame(this.fitFrame)));

    this.connection.start();
  }

  /**
   * WebGL draws faster, but needs a GPU context that really draws; xterm's DOM renderer is the
   * fallback: when WebGL is missing (the addon throws as it loads), when the context is lost,
   * and when the watch finds the canvas drawing nothing, drawn at the wrong size, or too slow.
   * The terminal's buffer and its socket stay as they are; only what draws them changes.
   */
  private loadWebgl(): void {
    // Where the browser has no WebGL at all, the DOM renderer stays, untouched: a failed
    // addon load swaps renderers after the first measure, and the cells change size under tmux.
    if (webglGivenUp || !webglAvailable()) {
      this.showRenderer('dom');
      return;
    }
    let webgl: WebglAddon;
    try {
      webgl = new WebglAddon();
      this.term.loadAddon(webgl);
    } catch {
      this.showRenderer('dom');
      return;
    }
    this.showRenderer('webgl');
    let given = false;
    const giveUp = (why: string) => {
      if (given || this.store.isDisposed) return;
      given = true;
      if (!webglGivenUp) console.warn(`pocketmux: ${why}; drawing the terminal with the DOM renderer from here.`);
      webglGivenUp = true;
      watch.dispose();
      webgl.dispose();
      this.showRenderer('dom');
      // The DOM renderer measures its cells anew: tmux hears the size they give.
      this.scheduleFit();
    };
    const watch = this.store.add(
      new WebglWatch({ term: this.term, host: this.host, onFault: (fault, detail) => giveUp(`the terminal's WebGL renderer ${FAULT_TEXT[fault]} (${detail})`) }),
    );
    webgl.onContextLoss(() => giveUp('the terminal lost its WebGL context'));
  }

  private showRenderer(renderer: Renderer): void {
    this.host.dataset.renderer = renderer;
  }

  get renderer(): Renderer {
    return this.host.dataset.renderer === 'webgl' ? 'webgl' : 'dom';
  }

  /**
   * Copy on selection: a selection made with the mouse is copied when the button comes up.
   * (With tmux's mouse mode on, a plain drag selects in tmux, which hands the text over in an
   * OSC 52 sequence; Shift+drag, or Option+drag on a Mac, selects in xterm.)
   */
  private watchSelection(): void {
    // Only a press in the terminal starts a selection to copy: find selects its match too, and
    // the find bar's buttons must not copy it.
    let pressed = false;
    const down = () => {
      pressed = true;
      this.selectionMoved = false;
    };
    this.host.addEventListener('mousedown', down, { capture: true });
    this.store.add(toDisposable(() => this.host.removeEventListener('mousedown', down, { capture: true })));
    this.store.add(
      this.term.onSelectionChange(() => {
        this.selectionMoved = true;
      }),
    );
    let settle: ReturnType<typeof setTimeout> | undefined;
    this.store.addListener(document, 'mouseup', () => {
      if (!pressed) return;
      pressed = false;
      // xterm settles the selection in its own mouseup listener, which runs after this one.
      clearTimeout(settle);
      settle = setTimeout(() => {
        const copy = this.selectionMoved && this.term.hasSelection();
        this.selectionMoved = false;
        if (copy) this.copySelection();
      });
    });
    this.store.add(toDisposable(() => clearTimeout(settle)));
    this.store.add(
      this.term.parser.registerOscHandler(52, (data) => {
        const text = osc52Text(data);
        if (text) writeClipboard(text);
        // Handled either way: a query is never answered, a program may not read the clipboard.
        return true;
      }),
    );
  }

  /** Copies xterm's selection; without the Clipboard API (plain HTTP), through the page's copy command. */
  copySelection(): void {
    const text = this.term.getSelection();
    if (!text || writeClipboard(text)) return;
    try {
      // xterm's own copy handler fills the clipboard with its selection.
      document.execCommand('copy');
    } catch {
      // Nothing more to try.
    }
  }

  private onKey(e: KeyboardEvent): boolean {
    const action = matchShortcut(e, MAC);
    if (!action) return true;
    // Paste stays the browser's: its paste event reaches xterm, which brackets what it pastes.
    if (action === 'paste') return false;
    if (e.type === 'keydown') {
      e.preventDefault();
      if (action === 'copy') this.copySelection();
      else this.opts.onShortcut(action);
    }
    return false;
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

  /** A new text size: the cells change, so the terminal refits and tmux hears the new size. */
  setFontSize(size: number): void {
    if (this.term.options.fontSize === size) return;
    this.term.options.fontSize = size;
    this.history?.snapshot.setFontSize(size);
    this.fitNow();
  }

  /**
   * Find over the pane's history: a read-only snapshot of it laid over this terminal (beside
   * its host, so the view's stage holds both), as wide and in the same text size, searched in
   * place of the screen. `closeHistory` takes it away.
   */
  openHistory(onState: (state: HistoryState) => void): HistorySnapshot {
    this.closeHistory();
    const host = document.createElement('div');
    host.className = 'pm-term-host pm-history-host';
    // Shown once the history is written into it; until then, or if it cannot be had, the screen shows.
    host.hidden = true;
    this.host.after(host);
    const snapshot = new HistorySnapshot({
      tabId: this.opts.tabId,
      host,
      cols: this.term.cols,
      rows: this.term.rows,
      fontFamily: FONT,
      fontSize: this.term.options.fontSize ?? this.opts.fontSize,
      lineHeight: LINE_HEIGHT,
      screenFinder: this.finder,
      onState,
      onShortcut: (action) => this.opts.onShortcut(action),
    });
    this.history = { snapshot, host };
    return snapshot;
  }

  closeHistory(): void {
    if (!this.history) return;
    this.history.snapshot.dispose();
    this.history.host.remove();
    this.history = null;
  }

  setTheme(theme: Theme): void {
    this.term.options.theme = terminalTheme(theme);
    this.finder.setTheme(theme);
  }

  /** Pastes as a paste: in bracketed-paste markers when the program asked for them, never typed raw. */
  paste(text: string): void {
    if (text) this.term.paste(text);
  }

  scrollToBottom(): void {
    this.term.scrollToBottom();
  }

  /** Input from the key bar: sent as if typed. */
  sendKeys(data: string): void {
    this.localEcho.reset();
    this.connection.send({ type: FrameType.Stdin, data: this.encoder.encode(data) });
  }

  /** A line from the input bar: the agent leaves copy-mode first, then Enter submits it. */
  sendLine(text: string): void {
    this.localEcho.reset();
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
    this.closeHistory();
    this.store.dispose();
  }
}
