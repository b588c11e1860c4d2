/**
 * A stand-in for the Anthropic Messages API, so the real Claude Code CLI can run offline in
 * tests. It speaks the streaming wire format the CLI expects (server-sent events), answers
 * side calls and token counts, records every request, and replies to the main conversation
 * from a per-test script.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reply to one main-conversation request: one assistant message. */
export type Reply = TextReply | ToolUseReply | SlowReply | ErrorReply;

export interface TextReply {
  kind: 'text';
  text: string;
}

export interface ToolUseReply {
  kind: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  /** Text streamed before the tool call, as a model usually says what it is about to do. */
  preamble?: string;
  /** Defaults to a fresh `toolu_<n>`. */
  id?: string;
}

/** An API error instead of a message; a turn that ends on one fires StopFailure. */
export interface ErrorReply {
  kind: 'error';
  status: number;
  type: string;
  message: string;
}

/**
 * A text reply whose stream stops after its first delta until `release()`, so a test can act
 * while Claude is visibly streaming (press Esc, say). One slow reply answers one request.
 */
export interface SlowReply {
  kind: 'slow';
  first: string;
  rest: string;
  /** Sends the held rest of the stream and ends the message. */
  release(): void;
  /** Resolves once the first delta has been written to the CLI. */
  readonly started: Promise<void>;
  /** Resolves when the CLI dropped the connection before the message ended (Esc). */
  readonly aborted: Promise<void>;
}

export function text(value: string): TextReply {
  return { kind: 'text', text: value };
}

export function toolUse(name: string, input: Record<string, unknown>, options: { preamble?: string; id?: string } = {}): ToolUseReply {
  return { kind: 'tool_use', name, input, ...options };
}

/** A Bash tool call, the one that makes Claude Code ask for permission. */
export function bash(command: string, description = 'Run a command', options: { preamble?: string; id?: string } = {}): ToolUseReply {
  return toolUse('Bash', { command, description }, options);
}

/**
 * The CLI retries many errors with backoff for up to 10 attempts (a 401 does, for one); a 400
 * `invalid_request_error` ends the turn within a second, with StopFailure `{error:"unknown"}`.
 */
export function apiError(status: number, type: string, message: string): ErrorReply {
  return { kind: 'error', status, type, message };
}

/**
 * The CLI draws streamed text a line at a time: a `first` that ends with a newline is on screen
 * while the rest is held; without one the pane shows only the bullet and the spinner.
 */
export function slow(first: string, rest = ''): SlowReply {
  let release!: () => void;
  let markStarted!: () => void;
  let markAborted!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const reply: SlowReply = { kind: 'slow', first, rest, release, started, aborted };
  slowControls.set(reply, { released, markStarted, markAborted });
  return reply;
}

/** The stand-in's side of a slow reply, kept out of the test's view. */
interface SlowControl {
  released: Promise<void>;
  markStarted(): void;
  markAborted(): void;
}

const slowControls = new WeakMap<SlowReply, SlowControl>();

/** What a reply may be built from: a fixed reply, or one computed from the request. */
export type ReplySource = Reply | ((request: RecordedRequest) => Reply);

export type PromptMatcher = string | RegExp | ((prompt: string, request: RecordedRequest) => boolean);

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface ContentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: MessagesBody | undefined;
  /** `messages` and `count_tokens` are the two endpoints the CLI needs; anything else gets a 404. */
  endpoint: 'messages' | 'count_tokens' | 'other';
  /** A messages request with no `tools`: titles, summaries and other calls beside the conversation. */
  sideCall: boolean;
  /** The person's latest prompt in the last user message, if it has one. */
  prompt: string | undefined;
  /** Whether the last user message carries a tool result. */
  hasToolResult: boolean;
  /** What the stand-in answered a messages request with, and the content blocks it sent. */
  reply?: Reply;
  content?: ContentBlock[];
  receivedAt: number;
}

export interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: MessageParam[];
  system?: unknown;
  [key: string]: unknown;
}

export interface FakeAnthropicOptions {
  /** Reply to a main request whose last user message holds a tool result (and no new prompt). */
  afterToolResult?: ReplySource;
  /** Reply to a main request that nothing else matched. */
  fallback?: ReplySource;
  /** Text of every side call. */
  sideCallText?: string | ((request: RecordedRequest) => string);
}

interface Rule {
  matcher: PromptMatcher;
  reply: ReplySource;
  times: number;
}

export class FakeAnthropic {
  /** Every request received, in order of arrival. */
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly queue: ReplySource[] = [];
  private readonly rules: Rule[] = [];
  private readonly open = new Set<ServerResponse>();
  private readonly held = new Set<SlowControl>();
  private readonly waiters = new Set<() => void>();
  private afterToolResultReply: ReplySource;
  private fallbackReply: ReplySource;
  private readonly sideCallText: string | ((request: RecordedRequest) => string);
  private messageCount = 0;
  private toolCount = 0;
  private closing = false;
  port = 0;

  private constructor(options: FakeAnthropicOptions) {
    this.afterToolResultReply = options.afterToolResult ?? text('All done: the command ran.');
    this.fallbackReply = options.fallback ?? text('OK.');
    this.sideCallText = options.sideCallText ?? 'Test session';
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
      });
    });
  }

  /** Starts a stand-in on 127.0.0.1 with a free port. */
  static async start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    const api = new FakeAnthropic(options);
    api.server.listen(0, '127.0.0.1');
    await once(api.server, 'listening');
    api.port = (api.server.address() as AddressInfo).port;
    return api;
  }

  /** The value for ANTHROPIC_BASE_URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Answers main requests whose latest prompt matches (a string matches as a substring).
   * Rules are tried in the order they were added; each one answers `times` requests (default:
   * every one).
   */
  onPrompt(matcher: PromptMatcher, reply: ReplySource, options: { times?: number } = {}): this {
    this.rules.push({ matcher, reply, times: options.times ?? Number.POSITIVE_INFINITY });
    return this;
  }

  /** Queues replies that answer the next main requests in order, before any other rule. */
  enqueue(...replies: ReplySource[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Sets the reply that ends a turn after a tool ran. */
  afterToolResult(reply: ReplySource): this {
    this.afterToolResultReply = reply;
    return this;
  }

  /** Sets the reply to main requests nothing else answered. */
  fallback(reply: ReplySource): this {
    this.fallbackReply = reply;
    return this;
  }

  /**
   * The text of the tool results in the latest request that carried any: what Claude told the
   * model a tool (or a person answering for it) said.
   */
  lastToolResultText(): string {
    const request = [...this.requests].reverse().find((r) => r.hasToolResult && !r.sideCall);
    const last = request?.body?.messages?.at(-1);
    if (!last || typeof last.content === 'string') return '';
    const texts = (content: unknown): string[] =>
      typeof content === 'string'
        ? [content]
        : Array.isArray(content)
          ? content.flatMap((c: { text?: unknown; content?: unknown }) => (typeof c.text === 'string' ? [c.text] : texts(c.content)))
          : [];
    return last.content
      .filter((b) => b.type === 'tool_result')
      .flatMap((b) => texts(b.content))
      .join('\n');
  }

  /** Requests of the conversation itself (those that offer tools), in order. */
  mainRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === 'messages' && !r.sideCall);
  }

  /** Resolves with the first recorded request that satisfies `predicate`, waiting for it if needed. */
  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs = 20_000): Promise<RecordedRequest> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.requests.find(predicate);
        if (!found) return false;
        clearTimeout(timer);
        this.waiters.delete(listener);
        resolve(found);
        return true;
      };
      const listener = () => {
        check();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(listener);
        const seen = this.requests.map((r) => `${r.method} ${r.path}${r.prompt ? ` "${r.prompt}"` : ''}`).join('\n  ');
        reject(new Error(`no matching request to the stand-in API in ${timeoutMs} ms; received:\n  ${seen}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(listener);
    });
  }

  /** Ends held streams and open connections, then stops the server. */
  async close(): Promise<void> {
    this.closing = true;
    for (const hold of this.held) hold.markAborted();
    this.held.clear();
    for (const res of this.open) res.destroy();
    this.open.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: MessagesBody | undefined;
    try {
      body = raw ? (JSON.parse(raw) as MessagesBody) : undefined;
    } catch {
      body = undefined;
    }
    const endpoint =
      req.method === 'POST' && url.pathname === '/v1/messages'
        ? 'messages'
        : req.method === 'POST' && url.pathname === '/v1/messages/count_tokens'
          ? 'count_tokens'
          : 'other';
    const lastUser = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      endpoint,
      sideCall: endpoint === 'messages' && !(Array.isArray(body?.tools) && body.tools.length > 0),
      prompt: lastUser ? latestPrompt(lastUser) : undefined,
      hasToolResult: lastUser ? blocks(lastUser).some((b) => b.type === 'tool_result') : false,
      receivedAt: Date.now(),
    };
    this.requests.push(recorded);
    for (const waiter of [...this.waiters]) waiter();

    if (endpoint === 'count_tokens') {
      sendJson(res, 200, { input_tokens: estimateTokens(raw) });
      return;
    }
    if (endpoint === 'other') {
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `${req.method} ${url.pathname}` } });
      return;
    }
    const reply = recorded.sideCall ? this.sideReply(recorded) : this.pick(recorded);
    recorded.reply = reply;
    if (reply.kind === 'error') {
      sendJson(res, reply.status, { type: 'error', error: { type: reply.type, message: reply.message } });
      return;
    }
    const content = this.contentOf(reply);
    recorded.content = content;
    const message = { id: `msg_${this.messageCount++}`, model: body?.model ?? 'claude-sonnet-4-5' };
    if (body?.stream) await this.stream(res, message, reply, content);
    else sendJson(res, 200, this.whole(message, reply, content));
  }

  private sideReply(request: RecordedRequest): Reply {
    return text(typeof this.sideCallText === 'function' ? this.sideCallText(request) : this.sideCallText);
  }

  private pick(request: RecordedRequest): Reply {
    const queued = this.queue.shift();
    if (queued) return resolveReply(queued, request);
    const prompt = request.prompt;
    if (prompt !== undefined) {
      for (const rule of this.rules) {
        if (rule.times <= 0 || !matches(rule.matcher, prompt, request)) continue;
        rule.times -= 1;
        return resolveReply(rule.reply, request);
      }
    }
    if (request.hasToolResult) return resolveReply(this.afterToolResultReply, request);
    return resolveReply(this.fallbackReply, request);
  }

  private contentOf(reply: Exclude<Reply, ErrorReply>): ContentBlock[] {
    switch (reply.kind) {
      case 'text':
        return [{ type: 'text', text: reply.text }];
      case 'slow':
        return [{ type: 'text', text: reply.first + reply.rest }];
      case 'tool_use':
        return [
          ...(reply.preamble ? [{ type: 'text', text: reply.preamble }] : []),
          { type: 'tool_use', id: reply.id ?? `toolu_${++this.toolCount}`, name: reply.name, input: reply.input },
        ];
    }
  }

  private whole(message: { id: string; model: string }, reply: Exclude<Reply, ErrorReply>, content: ContentBlock[]): unknown {
    return {
      ...messageShell(message),
      content,
      stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn',
      usage: usage(20),
    };
  }

  private async stream(
    res: ServerResponse,
    message: { id: string; model: string },
    reply: Exclude<Reply, ErrorReply>,
    content: ContentBlock[],
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    this.open.add(res);
    let clientGone = false;
    res.on('close', () => {
      this.open.delete(res);
      clientGone = !res.writableFinished;
    });
    const send = (event: string, data: Record<string, unknown>) => {
      if (!res.writableEnded && !res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    };

    send('message_start', { message: { ...messageShell(message), content: [], stop_reason: null, usage: usage(1) } });
    for (const [index, block] of content.entries()) {
      if (block.type === 'tool_use') {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        send('content_block_stop', { index });
        continue;
      }
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (reply.kind === 'slow') {
        const control = slowControls.get(reply);
        if (!control) throw new Error('a slow reply must come from slow()');
        send('content_block_delta', { index, delta: { type: 'text_delta', text: reply.first } });
        this.held.add(control);
        control.markStarted();
        const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
        await Promise.race([control.released, gone]);
        this.held.delete(control);
        if (clientGone || this.closing || res.destroyed) {
          control.markAborted();
          return;
        }
        if (reply.rest) send('content_block_delta', { index, delta: { type: 'text_delta', text: reply.rest } });
      } else {
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text ?? '' } });
      }
      send('content_block_stop', { index });
    }
    send('message_delta', {
      delta: { stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    send('message_stop', {});
    res.end();
  }
}

function messageShell(message: { id: string; model: string }) {
  return { id: message.id, type: 'message', role: 'assistant', model: message.model, stop_sequence: null };
}

function usage(outputTokens: number) {
  return { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
}

function resolveReply(source: ReplySource, request: RecordedRequest): Reply {
  return typeof source === 'function' ? source(request) : source;
}

function matches(matcher: PromptMatcher, prompt: string, request: RecordedRequest): boolean {
  if (typeof matcher === 'string') return prompt.includes(matcher);
  if (matcher instanceof RegExp) return matcher.test(prompt);
  return matcher(prompt, request);
}

function blocks(message: MessageParam): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/**
 * The CLI wraps what the person typed with context of its own (`<system-reminder>` blocks,
 * interruption markers) in the same user message; the prompt is the last text block that is
 * none of those.
 */
function latestPrompt(message: MessageParam): string | undefined {
  const texts = blocks(message)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b.text as string).trim())
    .filter((t) => t !== '' && !t.startsWith('<system-reminder>') && !t.startsWith('[Request interrupted'));
  return texts.at(-1);
}

function estimateTokens(raw: string): number {
  return Math.max(1, Math.ceil(raw.length / 4));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
