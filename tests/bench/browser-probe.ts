/**
 * The in-page probe of the browser benchmark, injected the same way into pocketmux's page and
 * wetty's (`page.addInitScript`) before either page's own scripts run, so both are timed by the
 * same code, inside the page, with no round trip to the bench in any measured interval.
 *
 * It watches xterm's DOM renderer: a MutationObserver on the screen (`.xterm-rows`, and the
 * layer where pocketmux draws a key before its echo, `[data-local-echo]`), whose callback runs in
 * the frame in which xterm wrote the rows (xterm renders from requestAnimationFrame, as the layer
 * does), so its
 * `performance.now()` is the moment the change is on its way to the screen, and
 * `document.timeline.currentTime` there is that frame's start. Start times are the keydown
 * event's `timeStamp`, in the same clock.
 *
 * It is plain JavaScript in a string: a function handed to Playwright would be serialized
 * after the bench's TypeScript is compiled, and a compiler's helpers would not exist in the page.
 */

/** One key: keydown → the rows' text changed (the echo written), and that frame's start. */
export interface KeySample {
  down: number;
  painted: number;
  frame: number;
  /** The change was pocketmux's local echo drawing the key (its layer showed text then). */
  local: boolean;
}

/** One flood: Enter's keydown → the marker on the rows; what the main thread went through. */
export interface FloodSample {
  down: number;
  painted: number;
  /** requestAnimationFrame times from a moment before Enter until the marker was painted. */
  frames: number[];
  /** Long tasks (≥ 50 ms, PerformanceObserver `longtask`) that overlapped the flood, in ms. */
  longTasks: number[];
  /** What the page's sockets received from arming to the marker: bytes, or characters of text messages. */
  received: number;
  /** How many messages that came in: each a task for the page. */
  messages: number;
}

/** A cold start: navigation → the terminal's script loaded, and → the shell prompt on the rows. */
export interface ColdSample {
  /** `responseEnd` of the first resource whose URL contains the chunk's name, or null if none came. */
  chunk: number | null;
  prompt: number;
}

/** Where a cold start's prompt is given to the probe before the page's scripts run. */
export function promptScript(prompt: string): string {
  return `window.__pmBenchPrompt = ${JSON.stringify(prompt)};`;
}

export const PROBE_SCRIPT = `(() => {
  if (window.__pmBench) return;
  const rowsElement = () => document.querySelector('.xterm-rows');
  // What a person sees: xterm's rows, and the characters pocketmux draws over them before their
  // echo comes back (its local echo, \`[data-local-echo]\`, drawn from requestAnimationFrame too).
  const rowsText = () => {
    const rows = rowsElement();
    const local = document.querySelector('[data-local-echo]');
    return (rows ? rows.textContent : '') + (local && local.textContent ? '\u0000' + local.textContent : '');
  };
  const spaced = (text) => text.replace(/\\u00a0/g, ' ');
  const state = { key: null, flood: null, wait: null, prompt: null };
  const onRows = () => {
    const now = performance.now();
    const frame = document.timeline.currentTime;
    const text = rowsText();
    const key = state.key;
    if (key && key.down !== undefined && text !== key.base) {
      state.key = null;
      const layer = document.querySelector('[data-local-echo]');
      key.resolve({ down: key.down, painted: now, frame, local: Boolean(layer && layer.textContent) });
    }
    const flood = state.flood;
    if (flood && flood.down !== undefined && text.includes(flood.marker)) {
      state.flood = null;
      flood.finish(now);
    }
    const wait = state.wait;
    if (wait && spaced(text).includes(wait.text)) {
      state.wait = null;
      wait.resolve(now);
    }
    const prompt = window.__pmBenchPrompt;
    if (prompt && state.prompt === null && spaced(text).includes(prompt)) state.prompt = now;
  };
  const rowsObserver = new MutationObserver(onRows);
  // The rows exist once xterm has opened; until then the document is watched for them.
  const finder = new MutationObserver(() => {
    const rows = rowsElement();
    if (!rows) return;
    finder.disconnect();
    rowsObserver.observe(rows.closest('.xterm-screen') || rows, { childList: true, subtree: true, characterData: true });
    onRows();
  });
  finder.observe(document, { childList: true, subtree: true });
  window.addEventListener('keydown', (event) => {
    const key = state.key;
    if (key && key.down === undefined && event.key === key.expect) key.down = event.timeStamp;
    const flood = state.flood;
    if (flood && flood.down === undefined && event.key === 'Enter') flood.down = event.timeStamp;
  }, true);
  // Every socket the page opens counts what it receives: how much of a flood reached the page.
  let received = 0;
  let messages = 0;
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const data = event.data;
        received += typeof data === 'string' ? data.length : (data.byteLength ?? data.size ?? 0);
        messages++;
      });
    }
  };
  const withTimeout = (promise, ms, what) => Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(what + ' not painted in ' + ms + ' ms')), ms)),
  ]);
  let keyDone = null;
  window.__pmBench = {
    renderer() {
      const screen = document.querySelector('.xterm-screen');
      if (!screen) return 'none';
      if (screen.querySelector('canvas') && !rowsElement()) return 'webgl';
      return rowsElement() ? 'dom' : 'unknown';
    },
    armKey(expect) {
      keyDone = new Promise((resolve) => {
        state.key = { expect, base: rowsText(), down: undefined, resolve };
      });
    },
    waitKey(ms) {
      const done = keyDone;
      keyDone = null;
      return withTimeout(done, ms, 'the echo').finally(() => { state.key = null; });
    },
    waitText(text, ms) {
      if (spaced(rowsText()).includes(text)) return Promise.resolve(performance.now());
      return withTimeout(new Promise((resolve) => { state.wait = { text, resolve }; }), ms, JSON.stringify(text)).finally(() => { state.wait = null; });
    },
    armFlood(marker) {
      const receivedBefore = received;
      const messagesBefore = messages;
      const frames = [];
      const longTasks = [];
      let running = true;
      const tick = (t) => {
        frames.push(t);
        if (running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry);
      });
      observer.observe({ type: 'longtask' });
      this.flood = new Promise((resolve) => {
        state.flood = {
          marker,
          down: undefined,
          finish(painted) {
            running = false;
            for (const entry of observer.takeRecords()) longTasks.push(entry);
            observer.disconnect();
            const down = this.down;
            const overlapping = longTasks.filter((t) => t.startTime + t.duration > down && t.startTime < painted).map((t) => t.duration);
            resolve({ down, painted, frames: frames.filter((t) => t <= painted), longTasks: overlapping, received: received - receivedBefore, messages: messages - messagesBefore });
          },
        };
      });
    },
    waitFlood(ms) {
      return withTimeout(this.flood, ms, 'the flood').finally(() => { state.flood = null; });
    },
    cold(chunkName, ms) {
      const chunk = () => {
        const entry = performance.getEntriesByType('resource').find((e) => e.name.includes(chunkName));
        return entry ? entry.responseEnd : null;
      };
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const look = () => {
          if (state.prompt !== null) resolve({ chunk: chunk(), prompt: state.prompt });
          else if (performance.now() - started > ms) reject(new Error('the prompt was not painted in ' + ms + ' ms'));
          else setTimeout(look, 20);
        };
        look();
      });
    },
  };
})();`;
