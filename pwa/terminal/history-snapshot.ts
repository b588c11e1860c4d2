import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { type ITheme, Terminal } from '@xterm/xterm';
import { PaneHistorySchema } from '../../protocol/pane-history.js';
import { sessionRoutes } from '../core/session-routes.js';
import { errorText } from '../core/api-request.js';
import { currentTheme, onThemeChange, type Theme } from '../ui/theme.js';
import { type Disposable, DisposableStore, toDisposable } from './disposables.js';
import { FIND_CLOSE_EVENT, type FindResults } from './find-count.js';
import { type HistoryState, snapshotScrollback, snapshotText } from './history-text.js';
import { openLink } from './links.js';
import { type Finder, type FindOptions, TerminalFinder } from './terminal-finder.js';
import { matchShortcut, onMac, type TerminalAction } from './terminal-shortcuts.js';
import { findDecorations, terminalTheme } from './terminal-theme.js';
import { safeParse } from '../../protocol/safe-parse.js';

const MAC = onMac();

/**
 * The terminal's colours, but for its selection while another element has the focus: find
 * selects the current match and the focus stays in the find field, so the selection is what
 * shows over that match, and it shows in the current match's colour.
 */
function snapshotTheme(theme: Theme): ITheme {
  return { ...terminalTheme(theme), selectionInactiveBackground: findDecorations(theme).activeMatchBackground };
}

export interface HistorySnapshotOptions {
  /** The tab's id, or the key of a Claude started outside pocketmux. */
  tabId: string;
  /**
   * Laid over the live terminal, in the light DOM, so xterm's stylesheet applies inside it;
   * hidden until the history is here.
   */
  host: HTMLElement;
  /**
   * The live terminal's columns, so the snapshot's lines wrap as its own; its rows are what its
   * host holds below the find bar.
   */
  cols: number;
  rows: number;
  fontFamily: string;
  fontSize: number;
  lineHeight: number;
  /** Searched instead when the history cannot be had. */
  screenFinder: Finder;
  onState(state: HistoryState): void;
  /** A shortcut pressed in the snapshot: find again, the text size. */
  onShortcut(action: Exclude<TerminalAction, 'copy' | 'paste'>): void;
}

/**
 * Find in a pane's real history. The live terminal keeps no scrollback (tmux does), so while
 * find is open the pane's history and screen, as tmux captured them, are shown read only in a
 * terminal of their own over it, and searched from the newest match upwards. If they cannot be
 * had, find searches the live screen, and its state says why.
 */
export class HistorySnapshot implements Finder, Disposable {
  private readonly store = new DisposableStore();
  private readonly abort = new AbortController();
  private term: Terminal | null = null;
  private snapshotFinder: TerminalFinder | null = null;
  private state: HistoryState = { kind: 'loading' };
  private readonly listeners = new Set<(results: FindResults) => void>();
  private stopResults: (() => void) | null = null;
  /** The search asked for while the history was coming, run once it is here. */
  private last: { query: string; options: FindOptions } | null = null;
  /** The live terminal's columns and text size, as they change while the history comes. */
  private readonly size: { cols: number; rows: number; fontSize: number };
  private readonly fit = new FitAddon();
  private fitFrame = 0;

  constructor(private readonly opts: HistorySnapshotOptions) {
    this.size = { cols: opts.cols, rows: opts.rows, fontSize: opts.fontSize };
    this.store.add(toDisposable(() => this.abort.abort()));
    this.store.add(toDisposable(() => this.stopResults?.()));
    opts.onState(this.state);
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const parsed = safeParse(PaneHistorySchema, await sessionRoutes(this.opts.tabId).history(this.abort.signal));
      if (this.store.isDisposed) return;
      if (!parsed.success) throw new Error('the agent answered in a form this app does not know');
      const finder = await this.show(parsed.data.text);
      if (!this.store.isDisposed) this.use(finder, { kind: 'ready', truncated: parsed.data.truncated });
    } catch (err) {
      if (!this.store.isDisposed) this.use(this.opts.screenFinder, { kind: 'failed', reason: errorText(err) });
    }
  }

  /** Writes the text into a read-only terminal over the live one; its finder, once it is written. */
  private show(text: string): Promise<TerminalFinder> {
    const { opts, size } = this;
    const theme = currentTheme();
    const term = this.store.add(
      new Terminal({
        allowProposedApi: true,
        cols: size.cols,
        rows: size.rows,
        fontFamily: opts.fontFamily,
        fontSize: size.fontSize,
        lineHeight: opts.lineHeight,
        theme: snapshotTheme(theme),
        scrollback: snapshotScrollback(text, size.cols),
        disableStdin: true,
        cursorInactiveStyle: 'none',
        linkHandler: { activate: (_event, uri) => openLink(uri), allowNonHttpProtocols: false },
      }),
    );
    this.term = term;
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    term.loadAddon(new WebLinksAddon((_event, uri) => openLink(uri)));
    term.loadAddon(this.fit);
    const finder = new TerminalFinder(term, theme, true);
    this.snapshotFinder = finder;
    term.attachCustomKeyEventHandler((e) => this.onKey(e));
    opts.host.hidden = false;
    term.open(opts.host);
    this.fitRows();
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(this.fitFrame);
      this.fitFrame = requestAnimationFrame(() => this.fitRows());
    });
    observer.observe(opts.host);
    this.store.add(toDisposable(() => observer.disconnect()));
    this.store.add(toDisposable(() => cancelAnimationFrame(this.fitFrame)));
    this.store.add(
      toDisposable(
        onThemeChange((t) => {
          term.options.theme = snapshotTheme(t);
          this.snapshotFinder?.setTheme(t);
        }),
      ),
    );
    return new Promise((resolve) => term.write(snapshotText(text), () => resolve(finder)));
  }

  /** Esc closes find from here too; the terminal's shortcuts do what they do over the live one. */
  private onKey(e: KeyboardEvent): boolean {
    if (e.type !== 'keydown') return e.key !== 'Escape' && !matchShortcut(e, MAC);
    if (e.key === 'Escape') {
      e.preventDefault();
      this.opts.host.dispatchEvent(new CustomEvent(FIND_CLOSE_EVENT, { bubbles: true, composed: true }));
      return false;
    }
    const action = matchShortcut(e, MAC);
    if (!action) return true;
    e.preventDefault();
    if (action === 'copy') {
      const text = this.term?.getSelection();
      if (text) navigator.clipboard?.writeText(text).catch(() => undefined);
    } else if (action !== 'paste') {
      this.opts.onShortcut(action);
    }
    return false;
  }

  /** Searches `finder` from here on, the search asked for meanwhile too, and says so. */
  private use(finder: Finder, state: HistoryState): void {
    this.stopResults?.();
    this.stopResults = finder.onResults((results) => {
      for (const listener of this.listeners) listener(results);
    });
    this.state = state;
    this.opts.onState(state);
    if (this.last) finder.update(this.last.query, this.last.options);
  }

  private get active(): Finder | null {
    if (this.state.kind === 'ready') return this.snapshotFinder;
    return this.state.kind === 'failed' ? this.opts.screenFinder : null;
  }

  get upwards(): boolean {
    return this.state.kind !== 'failed';
  }

  update(query: string, options: FindOptions): void {
    this.last = query ? { query, options } : null;
    this.active?.update(query, options);
  }

  next(query: string, options: FindOptions): void {
    this.last = query ? { query, options } : null;
    this.active?.next(query, options);
  }

  previous(query: string, options: FindOptions): void {
    this.last = query ? { query, options } : null;
    this.active?.previous(query, options);
  }

  clear(): void {
    this.last = null;
    this.active?.clear();
  }

  onResults(listener: (results: FindResults) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * As many rows as the host holds (below the find bar), the live terminal's columns. Rows
   * only move lines in and out of the scrollback; new columns rewrap them, as xterm wrapped
   * them when they were written.
   */
  private fitRows(): void {
    const term = this.term;
    const host = this.opts.host;
    if (!term || host.clientWidth === 0 || host.clientHeight === 0) return;
    const rows = this.fit.proposeDimensions()?.rows;
    if (rows && (rows !== term.rows || this.size.cols !== term.cols)) term.resize(this.size.cols, rows);
  }

  /** The live terminal's new width. */
  setCols(cols: number): void {
    this.size.cols = cols;
    this.fitRows();
  }

  setFontSize(size: number): void {
    this.size.fontSize = size;
    if (!this.term) return;
    this.term.options.fontSize = size;
    this.fitRows();
  }

  dispose(): void {
    this.listeners.clear();
    this.store.dispose();
    this.term = null;
    this.snapshotFinder = null;
  }
}
