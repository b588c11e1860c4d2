/**
 * A stand-in for the OpenAI Responses API, as the real Codex CLI calls it (`POST
 * /v1/responses`, answered with server-sent events), on a free loopback port. Codex reaches
 * it as a model provider of its own, given as session flags (`codexProviderFlags`), so it
 * needs no login and no network. A prompt gets the reply scripted for it: a command to run
 * (an `exec_command` call, which asks for approval), or a message; every request is kept.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually.js';

export type CodexReply = { kind: 'message'; text: string } | { kind: 'command'; command: string; justification: string };

export const message = (text: string): CodexReply => ({ kind: 'message', text });
/** A command run outside the sandbox, so Codex asks for approval first (`-a on-request`). */
export const command = (cmd: string, justification = 'Run a command'): CodexReply => ({ kind: 'command', command: cmd, justification });

/** An item of a request's `input`, as far as the stand-in reads it. */
interface InputItem {
  type?: string;
  role?: string;
  content?: { type?: string; text?: string }[];
  call_id?: string;
  output?: unknown;
}

export interface ResponsesRequest {
  body: { input?: InputItem[]; tools?: { name?: string; type?: string }[]; model?: string };
  /** The last user prompt in the input. */
  prompt: string;
  /** Whether the input ends with a tool's output: the model is asked to go on after a call. */
  afterToolOutput: boolean;
}

function promptOf(input: readonly InputItem[]): string {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item?.type === 'message' && item.role === 'user') return (item.content ?? []).map((c) => c.text ?? '').join('');
  }
  return '';
}

function events(id: string, reply: CodexReply, n: number): object[] {
  const created = { type: 'response.created', response: { id } };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const completed = { type: 'response.completed', response: { id, usage } };
  if (reply.kind === 'command') {
    const item = {
      type: 'function_call',
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: reply.command, sandbox_permissions: 'require_escalated', justification: reply.justification }),
    };
    return [created, { type: 'response.output_item.added', output_index: 0, item }, { type: 'response.output_item.done', output_index: 0, item }, completed];
  }
  const item = { type: 'message', id: `msg_${n}`, role: 'assistant', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
  return [
    created,
    { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
    { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: reply.text },
    { type: 'response.output_item.done', output_index: 0, item },
    completed,
  ];
}

export class FakeOpenAI {
  readonly requests: ResponsesRequest[] = [];
  private readonly scripted: { prompt: string; reply: CodexReply }[] = [];
  private afterTool: CodexReply = message('Done.');
  private n = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeOpenAI> {
    let fake: FakeOpenAI | undefined;
    const server = createServer((req, res) => fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeOpenAI(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return fake;
  }

  /** What a prompt containing `prompt` gets; unscripted prompts get a short message. */
  onPrompt(prompt: string, reply: CodexReply): this {
    this.scripted.push({ prompt, reply });
    return this;
  }

  /** What the model says once a command it asked for has its output (or its refusal). */
  afterToolOutput(reply: CodexReply): this {
    this.afterTool = reply;
    return this;
  }

  waitForRequest(predicate: (request: ResponsesRequest) => boolean, timeoutMs = 30_000): Promise<ResponsesRequest> {
    return eventually(() => this.requests.find(predicate), timeoutMs, 'a matching request to the stand-in Responses API');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not served by the stand-in"}}');
        return;
      }
      let body: ResponsesRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest['body'];
      } catch {
        res.writeHead(400).end();
        return;
      }
      const input = body.input ?? [];
      const request: ResponsesRequest = { body, prompt: promptOf(input), afterToolOutput: input.at(-1)?.type === 'function_call_output' };
      this.requests.push(request);
      const n = ++this.n;
      const scripted = request.afterToolOutput ? this.afterTool : (this.scripted.find((s) => request.prompt.includes(s.prompt))?.reply ?? message('Hello from the stand-in.'));
      // Codex asks a side request of its own beside a turn (a title, say) with no tools: a
      // command there would be "unsupported", so it gets words.
      const offersCommands = (body.tools ?? []).some((t) => t.name === 'exec_command');
      const reply = scripted.kind === 'command' && !offersCommands ? message('A side answer from the stand-in.') : scripted;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of events(`resp_${n}`, reply, n)) res.write(`event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The session flags (`-c` values) that make Codex use the stand-in at `url`: its key is read from `PM_STAND_IN_KEY`. */
export function codexProviderFlags(url: string): string[] {
  return ['-c', 'model_provider="standin"', '-c', `model_providers.standin={name="standin",base_url=${JSON.stringify(url)},wire_api="responses",env_key="PM_STAND_IN_KEY"}`];
}

/**
 * A `config.toml` for a test's `CODEX_HOME`: the stand-in as the model provider, the model, an
 * approval policy that asks before an escalated command, and the given projects trusted (no
 * folder-trust dialog at start). What a person's own config would say; the agent adds nothing.
 */
export function codexConfigToml(url: string, projects: readonly string[]): string {
  return [
    'model_provider = "standin"',
    'model = "gpt-5.1-codex"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    '',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = ${JSON.stringify(url)}`,
    'wire_api = "responses"',
    'env_key = "PM_STAND_IN_KEY"',
    ...projects.flatMap((dir) => ['', `[projects.${JSON.stringify(dir)}]`, 'trust_level = "trusted"']),
    '',
  ].join('\n');
}
