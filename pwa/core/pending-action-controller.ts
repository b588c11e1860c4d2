import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { errorText } from './api-request.js';

/**
 * One action at a time and how it went: `busy` while it runs (buttons disable), and the
 * agent's own error text when it fails, to show beside the button the person pressed.
 */
export class PendingActionController implements ReactiveController {
  busy = false;
  error = '';

  constructor(protected readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** Runs `work`; resolves with its result, or with null once its error is shown. */
  async run<T>(work: () => Promise<T>): Promise<{ value: T } | null> {
    this.busy = true;
    this.error = '';
    this.host.requestUpdate();
    try {
      return { value: await work() };
    } catch (err) {
      this.error = errorText(err);
      return null;
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
  }

  /** A message to show instead of the agent's, for a problem found before asking it. */
  fail(message: string): void {
    this.error = message;
    this.host.requestUpdate();
  }

  clearError(): void {
    this.error = '';
    this.host.requestUpdate();
  }
}
