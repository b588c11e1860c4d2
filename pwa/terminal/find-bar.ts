import { css, html, LitElement, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { closeIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import { FIND_CLOSE_EVENT, FIND_SPACE_EVENT, type FindResults, matchCountText } from './find-count.js';
import { downIcon, upIcon } from './terminal-icons.js';
import type { Finder, FindOptions } from './terminal-finder.js';
import { matchShortcut, onMac } from './terminal-shortcuts.js';

const MAC = onMac();

/**
 * Find in the terminal: the query, how many matches and which one is current ("3 of 12"),
 * next and previous (Enter, Shift+Enter), match case; Esc or × closes it (`pm-find-close`),
 * and the view gives the terminal its focus back. The arrows point where they move: in a
 * pane's history Next goes up, to older lines. A note under the row says what is searched
 * when it is not the whole history (loading it, only its newest part, only the screen).
 * Loaded with the terminal.
 */
@customElement('pm-find-bar')
export class FindBar extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        position: absolute;
        top: 8px;
        right: calc(16px + var(--pm-safe-right));
        z-index: 1;
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 2px;
        padding: 4px;
        border-radius: var(--pm-radius);
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        box-shadow: 0 6px 20px var(--pm-shadow);
      }
      input {
        width: 220px;
        min-height: 40px;
        font-family: var(--pm-mono);
        font-size: 14px;
      }
      .count {
        min-width: 74px;
        padding: 0 6px;
        font-size: 13px;
        color: var(--pm-muted);
        text-align: center;
        white-space: nowrap;
        font-variant-numeric: tabular-nums;
      }
      button,
      .count {
        flex: none;
      }
      button {
        min-height: 40px;
        min-width: 40px;
        padding: 0;
        border-color: transparent;
        background: transparent;
      }
      button.case {
        font-size: 14px;
        font-weight: 650;
        padding: 0 8px;
      }
      button[aria-pressed='true'] {
        background: var(--pm-surface-3);
        border-color: var(--pm-field-border);
      }
      /* Its own row under the field and buttons, as wide as they are: wrapped to the width the
         row gives it (its size contained), never widening the bar. */
      .note {
        flex: 1 0 100%;
        contain: inline-size;
        font-size: 12px;
        line-height: 1.35;
        color: var(--pm-muted);
        overflow-wrap: anywhere;
      }
      .note span {
        display: block;
        padding: 2px 6px;
      }
      /* A phone: the width of the screen, the field taking what the buttons leave. */
      @media (max-width: 560px) {
        :host {
          left: calc(8px + var(--pm-safe-left));
          right: calc(8px + var(--pm-safe-right));
        }
        input {
          flex: 1 1 0;
          width: 0;
          /* 16px keeps iOS from zooming in on focus. */
          font-size: 16px;
        }
        :host {
          gap: 4px;
        }
        .count {
          min-width: 0;
          padding: 0 2px;
        }
      }
      /* A finger needs 44 px; a mouse does with the smaller bar. */
      @media (pointer: coarse) {
        input,
        button {
          min-height: var(--pm-tap);
        }
        button {
          min-width: var(--pm-tap);
        }
      }
    `,
  ];

  @property({ attribute: false }) finder: Finder | null = null;
  /** What is searched, when it is not the whole history; empty for nothing to say. */
  @property() note = '';
  @state() private query = '';
  @state() private caseSensitive = false;
  @state() private results: FindResults | null = null;
  @query('input') private input!: HTMLInputElement;
  private stopResults: (() => void) | null = null;
  private readonly sizeObserver = new ResizeObserver(() => {
    this.dispatchEvent(new CustomEvent(FIND_SPACE_EVENT, { detail: this.offsetTop + this.offsetHeight, bubbles: true, composed: true }));
  });

  constructor() {
    super();
    this.addEventListener('keydown', (e) => this.onKeydown(e));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.setAttribute('role', 'search');
    this.setAttribute('aria-label', 'Find in the terminal');
    if (this.finder) this.listen(this.finder);
    this.sizeObserver.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.sizeObserver.disconnect();
    this.stopResults?.();
    this.stopResults = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('finder') && this.isConnected && this.finder) this.listen(this.finder);
  }

  private listen(finder: Finder): void {
    this.stopResults?.();
    this.stopResults = finder.onResults((results) => {
      this.results = results;
    });
  }

  /** Puts the cursor in the field, its text selected, and shows the query's matches again. */
  async focusField(): Promise<void> {
    await this.updateComplete;
    this.input.focus();
    this.input.select();
    if (this.query) this.finder?.update(this.query, this.options);
  }

  private get options(): FindOptions {
    return { caseSensitive: this.caseSensitive };
  }

  private onInput(): void {
    this.query = this.input.value;
    if (!this.query) this.results = null;
    this.finder?.update(this.query, this.options);
  }

  private next(): void {
    this.finder?.next(this.query, this.options);
  }

  private previous(): void {
    this.finder?.previous(this.query, this.options);
  }

  private toggleCase(): void {
    this.caseSensitive = !this.caseSensitive;
    this.finder?.update(this.query, this.options);
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent(FIND_CLOSE_EVENT, { bubbles: true, composed: true }));
  }

  private onKeydown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.close();
    } else if (e.key === 'Enter' && e.composedPath()[0] === this.input) {
      e.preventDefault();
      if (e.shiftKey) this.previous();
      else this.next();
    } else if (matchShortcut(e, MAC) === 'find') {
      // Find again while finding: back to the field, never the browser's own find.
      e.preventDefault();
      void this.focusField();
    }
  }

  override render() {
    const count = matchCountText(this.query, this.results);
    const upwards = this.finder?.upwards ?? false;
    const previous = html`<button
      type="button"
      aria-label="Previous match"
      title="Previous match (Shift+Enter)"
      ?disabled=${!this.query}
      @click=${this.previous}
    >
      ${upwards ? downIcon() : upIcon()}
    </button>`;
    const next = html`<button type="button" aria-label="Next match" title="Next match (Enter)" ?disabled=${!this.query} @click=${this.next}>
      ${upwards ? upIcon() : downIcon()}
    </button>`;
    return html`
      <input
        type="text"
        aria-label="Find"
        placeholder="Find"
        .value=${this.query}
        autocomplete="off"
        autocapitalize="off"
        spellcheck="false"
        enterkeyhint="search"
        @input=${this.onInput}
      />
      <span class="count" role="status">${count}</span>
      <button type="button" class="case" aria-label="Match case" title="Match case" aria-pressed=${this.caseSensitive} @click=${this.toggleCase}>
        Aa
      </button>
      ${upwards ? html`${next}${previous}` : html`${previous}${next}`}
      <button type="button" aria-label="Close find" title="Close (Esc)" @click=${this.close}>${closeIcon()}</button>
      <span class="note" aria-live="polite" ?hidden=${!this.note}><span>${this.note}</span></span>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-find-bar': FindBar;
  }
}
