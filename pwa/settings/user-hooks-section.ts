import { css, html, LitElement } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import * as api from '../core/api.js';
import { errorText } from '../core/api-request.js';
import { sparkIcon } from '../ui/icons.js';
import { controls } from '../ui/styles.js';
import { settingsSection, settingsGlyph } from './section-styles.js';
import { parseUserHooks, type UserHooksMessage, userHooksError } from './user-hooks-text.js';

/**
 * Whether Claude sessions started outside pocketmux (in the person's own terminals) report
 * here: the agent reads Claude's user settings when asked, each time the page opens.
 */
@customElement('pm-user-hooks-status')
export class UserHooksStatus extends LitElement {
  static override styles = [
    controls,
    settingsSection,
    settingsGlyph,
    css`
      .card {
        align-items: flex-start;
        gap: 12px;
      }
      .unknown .glyph {
        background: color-mix(in srgb, var(--pm-warn) 14%, transparent);
        color: var(--pm-warn);
      }
      p {
        flex: 1 1 auto;
        min-width: 0;
        margin: 0;
        font-size: 15px;
        line-height: 1.45;
        overflow-wrap: anywhere;
      }
      code {
        font-family: var(--pm-mono);
        font-size: 0.9em;
        padding: 1px 5px;
        border-radius: 6px;
        background: var(--pm-bg);
        border: 1px solid var(--pm-border);
        user-select: all;
        -webkit-user-select: all;
        /* A command broken over lines is boxed on each. */
        box-decoration-break: clone;
        -webkit-box-decoration-break: clone;
      }
      .loading {
        color: var(--pm-muted);
      }
    `,
  ];

  @state() private message: UserHooksMessage | null = null;
  /** Back from a terminal where the person ran the install command: ask again. */
  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') void this.load();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisibility);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  private async load(): Promise<void> {
    try {
      this.message = parseUserHooks(await api.userHooks());
    } catch (err) {
      // Said once nothing better is known; a failed re-check keeps what was said.
      if (!this.message || this.message.tone === 'unknown') this.message = userHooksError(errorText(err));
    }
  }

  override render() {
    const m = this.message;
    return html`<h2 id="user-hooks-heading">Claude on this machine</h2>
      <section class="card ${m?.tone ?? ''}" aria-labelledby="user-hooks-heading">
        <span class="glyph">${sparkIcon()}</span>
        ${m
          ? html`<p role="status">${m.parts.map((p) => ('code' in p ? html`<code>${p.code}</code>` : p.text))}</p>`
          : html`<p class="loading" role="status">Checking Claude's settings…</p>`}
      </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-user-hooks-status': UserHooksStatus;
  }
}
