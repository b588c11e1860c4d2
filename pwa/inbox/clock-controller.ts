import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How often ages on cards ("2 min") are redrawn. */
const TICK_MS = 30_000;

/** The time now, for ages on the host's cards, redrawn every half minute while it is shown. */
export class ClockController implements ReactiveController {
  now = Date.now();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.now = Date.now();
    this.timer = setInterval(() => {
      this.now = Date.now();
      this.host.requestUpdate();
    }, TICK_MS);
  }

  hostUpdate(): void {
    // Any redraw (new data) shows the current age, not the one from the last tick.
    this.now = Date.now();
  }

  hostDisconnected(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
