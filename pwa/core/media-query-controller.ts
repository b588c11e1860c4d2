import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Whether a media query matches, redrawing the host when that changes. */
export class MediaQueryController implements ReactiveController {
  private readonly media: MediaQueryList;
  private readonly onChange = () => this.host.requestUpdate();

  constructor(
    private readonly host: ReactiveControllerHost,
    query: string,
  ) {
    this.media = matchMedia(query);
    host.addController(this);
  }

  get matches(): boolean {
    return this.media.matches;
  }

  hostConnected(): void {
    this.media.addEventListener('change', this.onChange);
  }

  hostDisconnected(): void {
    this.media.removeEventListener('change', this.onChange);
  }
}
