import { SearchAddon } from '@xterm/addon-search';
import type { Terminal } from '@xterm/xterm';
import type { Theme } from '../ui/theme.js';
import { countFromNewest, FIND_HIGHLIGHT_LIMIT, type FindResults } from './find-count.js';
import { findDecorations } from './terminal-theme.js';

export interface FindOptions {
  caseSensitive: boolean;
}

/** Find in the terminal's screen and scrollback, as the find bar drives it. */
export interface Finder {
  /**
   * Whether Next goes up, to older lines, as find in a terminal's history does: the first match
   * is the newest, and matches are counted from it. Otherwise Next goes down, from the top.
   */
  readonly upwards: boolean;
  /** The query changed (typing): highlights every match and moves to the first from here. */
  update(query: string, options: FindOptions): void;
  next(query: string, options: FindOptions): void;
  previous(query: string, options: FindOptions): void;
  /** Removes the highlights and the selected match. */
  clear(): void;
  /** Calls `listener` with the count after each search; returns what stops listening. */
  onResults(listener: (results: FindResults) => void): () => void;
}

/** The search addon with the theme's match colours; disposed with the terminal. */
export class TerminalFinder implements Finder {
  private readonly addon = new SearchAddon({ highlightLimit: FIND_HIGHLIGHT_LIMIT });
  private last: { query: string; options: FindOptions } | null = null;

  constructor(
    private readonly term: Terminal,
    private theme: Theme,
    readonly upwards = false,
  ) {
    term.loadAddon(this.addon);
  }

  private search(query: string, options: FindOptions, how: 'update' | 'next' | 'previous'): void {
    this.last = query ? { query, options } : null;
    if (!query) {
      this.clear();
      return;
    }
    const search = { caseSensitive: options.caseSensitive, decorations: findDecorations(this.theme), incremental: how === 'update' };
    // The addon's findPrevious starts from the bottom, its findNext from the top.
    if ((how === 'previous') !== this.upwards) this.addon.findPrevious(query, search);
    else this.addon.findNext(query, search);
  }

  update(query: string, options: FindOptions): void {
    this.search(query, options, 'update');
  }

  next(query: string, options: FindOptions): void {
    this.search(query, options, 'next');
  }

  previous(query: string, options: FindOptions): void {
    this.search(query, options, 'previous');
  }

  clear(): void {
    this.last = null;
    this.addon.clearDecorations();
    this.term.clearSelection();
  }

  onResults(listener: (results: FindResults) => void): () => void {
    const sub = this.addon.onDidChangeResults((results) => listener(this.upwards ? countFromNewest(results) : results));
    return () => sub.dispose();
  }

  /** Repaints the highlights of a search in progress in the new theme's colours. */
  setTheme(theme: Theme): void {
    this.theme = theme;
    const last = this.last;
    if (!last) return;
    this.addon.clearDecorations();
    this.addon.findNext(last.query, { caseSensitive: last.options.caseSensitive, decorations: findDecorations(theme), incremental: true });
  }
}
