/**
 * The floors of the browser benchmark's key → echo painted: pages with no network at all,
 * timed by the same probe as pocketmux's and wetty's, in the same browser and profile.
 *
 * - `frame`: the page paints the key itself in the next frame, as xterm's DOM renderer
 *   would (a row's text written from requestAnimationFrame): the least any page can show
 *   in this measure, since a change reaches the screen with a frame.
 * - `local`: xterm.js (the same 6.0.0 both pages run) echoes each key itself, with no
 *   server: the most a terminal page could gain by predicting its echo locally.
 *
 * A terminal's key → echo above these floors is the part its own path (socket, server, tmux,
 * the page's handling) adds, which is what a page can still win on.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';

export type FloorName = 'frame' | 'local';
export const FLOORS: readonly FloorName[] = ['frame', 'local'];

const require = createRequire(import.meta.url);

/** The rows a probe watches, as xterm's DOM renderer lays them out. */
function framePage(): string {
  return `<!doctype html><meta charset="utf-8"><title>frame floor</title>
<div class="xterm-screen"><div class="xterm-rows"><div>$ </div></div></div>
<textarea class="xterm-helper-textarea" aria-label="keys"></textarea>
<script>
  const row = document.querySelector('.xterm-rows div');
  let text = '$ ';
  addEventListener('keydown', (event) => {
    event.preventDefault();
    text = event.key === 'Backspace' ? text.slice(0, -1) : text + event.key;
    requestAnimationFrame(() => { row.textContent = text; });
  });
</script>`;
}

/** xterm.js at the given size and text size, writing back what is typed. */
function localPage(cols: number, rows: number, fontSize: number): string {
  const script = readFileSync(require.resolve('@xterm/xterm/lib/xterm.js'), 'utf8');
  const css = readFileSync(require.resolve('@xterm/xterm/css/xterm.css'), 'utf8');
  return `<!doctype html><meta charset="utf-8"><title>local echo floor</title>
<style>${css} html, body { margin: 0; background: #000; }</style>
<div id="terminal"></div>
<script>${script}</script>
<script>
  const term = new Terminal(${JSON.stringify({ cols, rows, fontSize })});
  term.open(document.getElementById('terminal'));
  term.write('$ ');
  term.onData((data) => term.write(data === '\\x7f' ? '\\b\\x1b[K' : data));
  term.focus();
</script>`;
}

/** Serves the floor pages on loopback; `url(name, …)` is where each one is. */
export class FloorServer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<FloorServer> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const size = (key: string, fallback: number) => {
        const n = Number(url.searchParams.get(key));
        return Number.isInteger(n) && n > 0 && n <= 500 ? n : fallback;
      };
      const body = url.pathname === '/frame' ? framePage() : url.pathname === '/local' ? localPage(size('cols', 80), size('rows', 24), size('font', 14)) : null;
      if (body === null) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return new FloorServer(server, (server.address() as { port: number }).port);
  }

  url(name: FloorName, cells: string, fontSize: number): string {
    const [cols, rows] = cells.split('x');
    return `http://127.0.0.1:${this.port}/${name}?cols=${cols}&rows=${rows}&font=${fontSize}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
