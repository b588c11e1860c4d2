import { css, html, LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { agentText } from '../core/agent-text.js';
import { screenCard } from '../ui/screen-card.js';
import { controls } from '../ui/styles.js';

/**
 * Shown while the agent cannot be asked whether this browser may come in (the app keeps
 * retrying), or when part of the app failed to load (an update replaced it: reload).
 */
@customElement('pm-unreachable-screen')
export class UnreachableScreen extends LitElement {
  static override styles = [
    controls,
    screenCard,
    css`
      .retry {
        align-self: flex-start;
      }
    `,
  ];

  @property() errorMessage = '';
  @property() problem: 'unreachable' | 'not-loaded' = 'unreachable';

  /**
   * The logo comes from the agent, or from the service worker's cache where there is one: a
   * page that never got a service worker (its first load, or plain HTTP on a LAN) cannot fetch
   * it while the agent is down, and a broken image would stand where the logo goes.
   */
  private logo() {
    return html`<img class="logo" src="/icon.svg" alt="" @error=${(e: Event) => ((e.target as HTMLImageElement).hidden = true)} />`;
  }

  private retry(): void {
    this.dispatchEvent(new CustomEvent('pm-retry', { bubbles: true, composed: true }));
  }

  override render() {
    if (this.problem === 'not-loaded') {
      return html`<main class="card">
        ${this.logo()}
        <h1>This page did not load</h1>
        <div class="problem" role="alert">${this.errorMessage}</div>
        <p>pocketmux may have been updated; reloading fetches the new version.</p>
        <button class="retry primary" @click=${() => location.reload()}>Reload</button>
      </main>`;
    }
    return html`<main class="card">
      ${this.logo()}
      <h1>Can't reach pocketmux</h1>
      <div class="problem" role="alert">${agentText(this.errorMessage)}</div>
      <p>
        This page keeps trying. If the agent stopped, start it again on its machine: <code>pocketmux start</code>, as you started it before
        (the path to pocketmux when it is not on your PATH, and the same options).
      </p>
      <button class="retry" @click=${this.retry}>Try again</button>
    </main>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-unreachable-screen': UnreachableScreen;
  }
}
