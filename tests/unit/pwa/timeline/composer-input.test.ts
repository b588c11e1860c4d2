import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../../../protocol/limits.js';
import {
  FileTooLargeError,
  fileMention,
  fileSize,
  insertAt,
  pressEscape,
  sendPrompt,
  slashCommands,
  uploadFile,
} from '../../../../pwa/timeline/session-input.js';

// Requests are signed over their target on the page's origin; this browser holds no device key (no IndexedDB here), so none carries a proof.
beforeEach(() => {
  vi.stubGlobal('location', new URL('http://127.0.0.1:8420/'));
});

const OUTSIDE = 'outside-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';

/** XMLHttpRequest as the upload uses it, answering as the agent would. */
class FakeXhr {
  static made: FakeXhr[] = [];
  static answer: { status: number; body: unknown } = { status: 201, body: {} };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  readonly upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown): void {
    this.body = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: 3, total: 6, lengthComputable: true });
      this.status = FakeXhr.answer.status;
      this.responseText = JSON.stringify(FakeXhr.answer.body);
      this.onload?.();
    });
  }
  abort(): void {
    this.onabort?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.made = [];
});

describe("what the composer asks of a session's pane", () => {
  // The app and the agent read one constant now; these pin its wire value, which an app of an
  // earlier version still sends by.
  it('keeps the upload limits of the wire contract', () => {
    expect(UPLOAD_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(UPLOAD_FILENAME_HEADER.toLowerCase()).toBe('x-pocketmux-filename');
  });

  it('sends a prompt with Enter in one request, long or multi-line, by the routes of the inbox reply', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(null, { status: 204 });
    });
    await sendPrompt('t1', 'line one\nline two');
    await sendPrompt(OUTSIDE, 'x'.repeat(4000));
    expect(calls).toEqual([
      { url: '/api/tabs/t1/input', body: { text: 'line one\nline two', enter: true } },
      { url: `/api/outside/${OUTSIDE}/input`, body: { text: 'x'.repeat(4000), enter: true } },
    ]);
  });

  it("fails with the agent's reason when the prompt was refused", async () => {
    let n = 0;
    vi.stubGlobal('fetch', async () => {
      n++;
      return Response.json({ error: 'no such pane' }, { status: 409 });
    });
    await expect(sendPrompt('t1', 'hello')).rejects.toMatchObject({ status: 409, message: 'no such pane' });
    expect(n).toBe(1);
  });

  it('presses Escape in a tab by its id, and in an outside session by its key', async () => {
    const calls: { url: string; method: string | undefined; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
      return new Response(null, { status: 204 });
    });
    await pressEscape('t1');
    await pressEscape(OUTSIDE);
    expect(calls).toEqual([
      { url: '/api/tabs/t1/keys', method: 'POST', body: { key: 'Escape' } },
      { url: `/api/outside/${OUTSIDE}/keys`, method: 'POST', body: { key: 'Escape' } },
    ]);
  });

  it('lists the slash commands of a tab or an outside session', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return Response.json({ commands: [{ name: 'compact', description: 'Keep a summary', source: 'builtin' }] });
    });
    expect(await slashCommands('t1')).toEqual([{ name: 'compact', description: 'Keep a summary', source: 'builtin' }]);
    await slashCommands(OUTSIDE);
    expect(urls).toEqual(['/api/tabs/t1/commands', `/api/outside/${OUTSIDE}/commands`]);
  });

  it('uploads a file as the raw body with its name percent-encoded in the header, reporting progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 201, body: { path: '/p/.pocketmux/uploads/ph oto.png', relativePath: '.pocketmux/uploads/ph oto.png', bytes: 6 } };
    const file = new Blob(['abcdef']);
    const progress: number[] = [];
    const saved = await uploadFile('t1', file, 'ph oto é.png', (sent) => progress.push(sent)).done;
    expect(saved).toEqual({ path: '/p/.pocketmux/uploads/ph oto.png', relativePath: '.pocketmux/uploads/ph oto.png', bytes: 6 });
    const xhr = FakeXhr.made[0];
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/tabs/t1/uploads');
    expect(xhr?.headers['x-pocketmux-filename']).toBe('ph%20oto%20%C3%A9.png');
    expect(xhr?.headers['content-type']).toBe('application/octet-stream');
    expect(xhr?.body).toBe(file);
    expect(progress).toEqual([3]);
    await uploadFile(OUTSIDE, file, 'a.txt', () => {}).done;
    expect(FakeXhr.made[1]?.url).toBe(`/api/outside/${OUTSIDE}/uploads`);
  });

  it("fails with the agent's words, and refuses a file over the limit without sending it", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 413, body: { error: 'the file is larger than 10 MB' } };
    await expect(uploadFile('t1', new Blob(['x']), 'x', () => {}).done).rejects.toMatchObject({ status: 413, message: 'the file is larger than 10 MB' });
    const big = { size: UPLOAD_MAX_BYTES + 1 } as Blob;
    await expect(uploadFile('t1', big, 'big.bin', () => {}).done).rejects.toBeInstanceOf(FileTooLargeError);
    expect(FakeXhr.made).toHaveLength(1);
  });

  it('writes sizes in the units of the limit', () => {
    expect(fileSize(820)).toBe('820 B');
    expect(fileSize(14 * 1024 + 100)).toBe('14 KB');
    expect(fileSize(2.5 * 1024 * 1024)).toBe('2.5 MB');
    expect(fileSize(UPLOAD_MAX_BYTES)).toBe('10 MB');
  });

  it('puts @path into the prompt where the caret is, spaced from its neighbours', () => {
    expect(fileMention('.pocketmux/uploads/a.png')).toBe('@.pocketmux/uploads/a.png');
    expect(fileMention('.pocketmux/uploads/screen shot.png')).toBe('@".pocketmux/uploads/screen shot.png"');
    expect(insertAt('', 0, '@a.png')).toEqual({ value: '@a.png ', caret: 7 });
    expect(insertAt('look at', 7, '@a.png')).toEqual({ value: 'look at @a.png ', caret: 15 });
    expect(insertAt('look at  please', 8, '@a.png')).toEqual({ value: 'look at @a.png please', caret: 15 });
    expect(insertAt('lookat', 4, '@a')).toEqual({ value: 'look @a at', caret: 8 });
    expect(insertAt('x', 99, '@a')).toEqual({ value: 'x @a ', caret: 5 });
  });
});
