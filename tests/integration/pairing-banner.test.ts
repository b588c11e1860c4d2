/**
 * The pairing the CLI prints, at start and on `pocketmux pair`: a QR code with colours in a
 * terminal, plain blocks under NO_COLOR, none in a log, and none for a link only this machine
 * can open, which says how a phone gets one instead.
 */
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_BIN, type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent } from '../support/agent.js';
import { decodePlainQr, decodeTerminalQr } from '../support/terminal-qr.js';

const PUBLIC_URL = 'https://box.example.ts.net/';
const BLOCKS = /[█▀▄]/;
const LOOPBACK_NOTE = /^This link opens on this machine only\. For a phone, start the agent with --tailscale, or --public-url .+--tls-cert\/--tls-key\.$/m;

let proxied: AgentHandle;
let local: AgentHandle;
const terminals: pty.IPty[] = [];

beforeAll(async () => {
  [proxied, local] = await Promise.all([startAgent({ args: ['--public-url', PUBLIC_URL] }), startAgent()]);
});
afterAll(async () => {
  for (const t of terminals) t.kill('SIGKILL');
  await cleanupAgents();
});

/** `pocketmux pair` in a real terminal (node-pty): what the person sees, line ends as `\n`. */
async function pairInTerminal(agent: AgentHandle, extraEnv: Record<string, string> = {}): Promise<string> {
  const env = agentEnv(agent, extraEnv) as Record<string, string>;
  const term = pty.spawn(process.execPath, [AGENT_BIN, 'pair', '--data-dir', agent.dataDir], { cols: 100, rows: 60, env });
  terminals.push(term);
  let out = '';
  term.onData((d) => {
    out += d;
  });
  const exit = await new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
  expect(exit).toBe(0);
  await expect.poll(() => out, { timeout: 5_000 }).toContain('Another device later: ');
  return out.replace(/\r\n/g, '\n');
}

const linkIn = (text: string) => /^ {2}(https?:\/\/\S+#pair=\S+)$/m.exec(text)?.[1];
const widest = (text: string) =>
  Math.max(
    ...text
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((l) => BLOCKS.test(l))
      .map((l) => [...l].length),
  );

describe('the pairing as printed', () => {
  it('in a terminal: a QR code in colour that reads as the link, within 80 columns', async () => {
    const out = await pairInTerminal(proxied);
    expect(out).toContain('\x1b[');
    const link = linkIn(out);
    expect(link).toMatch(/^https:\/\/box\.example\.ts\.net\/#pair=/);
    expect(decodeTerminalQr(out)).toBe(link);
    expect(widest(out)).toBeLessThanOrEqual(80);
    expect(out).toMatch(/enter the code: [2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/m);
    expect(out).not.toMatch(LOOPBACK_NOTE);
  });

  it('in a terminal with NO_COLOR: no escape at all, and a QR code in plain blocks that still reads', async () => {
    const out = await pairInTerminal(proxied, { NO_COLOR: '1' });
    expect(out).not.toContain('\x1b');
    const link = linkIn(out);
    expect(link).toMatch(/^https:\/\/box\.example\.ts\.net\/#pair=/);
    expect(decodePlainQr(out)).toBe(link);
    expect(widest(out)).toBeLessThanOrEqual(80);
  });

  it('to a log or a pipe: the link and the code, no QR code and no escape', async () => {
    for (const out of [proxied.stdout(), (await runCli(['pair', '--data-dir', proxied.dataDir], agentEnv(proxied))).stdout]) {
      expect(out).not.toContain('\x1b');
      expect(out).not.toMatch(BLOCKS);
      expect(linkIn(out)).toMatch(/^https:\/\/box\.example\.ts\.net\/#pair=/);
      expect(out).toMatch(/Open the link on the device to pair \(works once, for 10 minutes\):/);
      expect(out).toMatch(/enter the code: [2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/m);
    }
  });

  it('for a link only this machine can open: says so and how a phone gets one, with no QR code to scan', async () => {
    const fromPair = await runCli(['pair', '--data-dir', local.dataDir], agentEnv(local));
    for (const out of [local.stdout(), fromPair.stdout, await pairInTerminal(local)]) {
      expect(linkIn(out)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#pair=/);
      expect(out).toMatch(/Open the link in a browser on this machine \(works once, for 10 minutes\):/);
      expect(out).toMatch(LOOPBACK_NOTE);
      expect(out).not.toMatch(BLOCKS);
      expect(out).not.toContain('Scan');
    }
  });
});
