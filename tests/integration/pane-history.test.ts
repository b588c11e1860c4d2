/**
 * A pane's history for find, against a real agent and real tmux: a tab's pane on the agent's
 * server and a pane of a Claude started outside pocketmux on a second server (the person's own
 * tmux, reported through the real hook script), each with lines scrolled off its screen; the
 * byte bound on a history larger than it, the bound on captures at once, and the refusals
 * where there is no pane, no longer the same pane, or no such key.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionNameFor } from '../../agent/tmux/commands.js';
import type { ApiError, TabView } from '../../protocol/api.js';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionsResponse } from '../../protocol/outside.js';
import { PANE_HISTORY_MAX_BYTES, type PaneHistory, PaneHistorySchema } from '../../protocol/pane-history.js';
import { type AgentHandle, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { api, claim, createTab, type Session, deviceHeaders } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { runHookScript } from '../support/hook-script.js';
import { TmuxServer } from '../support/tmux-server.js';
import { capturedHook } from '../support/status.js';

let agent: AgentHandle;
let phone: Session;
const own = TmuxServer.named('own');

beforeAll(async () => {
  // No sweep while these run: the outside panes run no claude, and one is made unreachable on purpose.
  agent = await startAgent({ env: { POCKETMUX_OUTSIDE_POLL_MS: '3600000' } });
  phone = await claim(agent, 'Pixel 8');
});

afterAll(async () => {
  await own.stop();
  await cleanupAgents();
});

/** `GET` a history route; a 200's body must pass the schema the PWA reads it with. */
async function history(path: string): Promise<{ status: number; body: PaneHistory & ApiError }> {
  const res = await api<PaneHistory & ApiError>(phone, 'GET', path);
  if (res.status === 200) expect(PaneHistorySchema.safeParse(res.body).success).toBe(true);
  return res;
}

const tabPane = (tab: TabView) => `=${sessionNameFor(tab.workspaceId, tab.id)}:`;

/** The pane's visible screen only, as tmux shows it, with the escapes a history carries. */
function screenOf(socket: string, target: string): Promise<string> {
  return tmux(socket, 'capture-pane', '-p', '-e', '-J', '-t', target);
}

async function waitForScreenLine(socket: string, target: string, line: string): Promise<void> {
  await eventually(async () => (await tmux(socket, 'capture-pane', '-p', '-t', target)).split('\n').some((l) => l.trimEnd() === line), 30_000, `"${line}" on the screen`);
}

describe("a tab's pane", () => {
  let tab: TabView;
  const id = randomBytes(4).toString('hex');
  const marker = `history-marker-${id}`;

  beforeAll(async () => {
    tab = await createTab(phone);
    await eventually(async () => /[$#]$/.test((await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', tabPane(tab))).trimEnd()), 15_000, 'the prompt');
    // Printed by the shell, so the command line itself never holds the words looked for.
    const text = `printf '%s-%s\\n' history-marker ${id}; printf '\\033[31m%s\\033[0m\\n' red-${id}; printf 'w%.0s' $(seq 1 200); echo; seq 1 300; echo done-${id}`;
    expect((await api(phone, 'POST', `/api/tabs/${tab.id}/input`, { text })).status).toBe(204);
    await waitForScreenLine(agent.tmuxSocket, tabPane(tab), `done-${id}`);
  });

  it('returns the history scrolled off the screen, then the screen, with colours and wrapped lines joined', async () => {
    const screen = await screenOf(agent.tmuxSocket, tabPane(tab));
    // Scrolled off: tmux keeps it, the screen does not show it.
    expect(screen).not.toContain(marker);
    const res = await history(`/api/tabs/${tab.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    // Once. (A row the shell filled to its last column is joined with the next, as tmux
    // marks it wrapped: a line may hold more than the marker.)
    expect(res.body.text.split(marker)).toHaveLength(2);
    // Its colour as an SGR escape, as the pane drew it; the reset comes with the next line's first cell.
    expect(res.body.text).toContain(`\x1b[31mred-${id}\n`);
    // 200 characters on an 80-column pane: one line, not three.
    expect(res.body.text).toMatch(/\n(\x1b\[[0-9;]*m)*w{200}\n/);
    // In order, the numbers after the marker, the screen last.
    const lines = res.body.text.split('\n');
    const at = lines.findIndex((l) => l.includes(marker));
    expect(lines.slice(at).filter((l) => /^\d+$/.test(l))).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));
    expect(res.body.text.endsWith(screen)).toBe(true);
  });

  it('refuses an unknown tab (404) and what is no tab id (400)', async () => {
    const unknown = await history('/api/tabs/tb-nope/history');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('no tab tb-nope');
    expect((await history('/api/tabs/NOT%20AN%20ID/history')).status).toBe(400);
  });

  it('sends only the newest 4 MB of a larger history, from the start of a line, and a few captures at once', async () => {
    const big = await createTab(phone);
    const done = `big-done-${id}`;
    // 20,000 numbered rows of 70 three-byte characters: 4.3 MB, within the 50,000 rows tmux keeps.
    await api(phone, 'POST', `/api/tabs/${big.id}/input`, { text: `seq -f "%05g $(printf '€%.0s' $(seq 1 70))" 1 20000; echo ${done}` });
    await waitForScreenLine(agent.tmuxSocket, tabPane(big), done);

    const res = await history(`/api/tabs/${big.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(true);
    expect(Buffer.byteLength(res.body.text)).toBeLessThanOrEqual(PANE_HISTORY_MAX_BYTES);
    expect(Buffer.byteLength(res.body.text)).toBeGreaterThan(PANE_HISTORY_MAX_BYTES - 200);
    const lines = res.body.text.split('\n');
    // A whole line first, then every one after it, up to the last and the screen.
    const row = /^(\d{5}) €{70}$/;
    expect(lines[0]).toMatch(row);
    const numbers = lines.flatMap((l) => row.exec(l)?.[1] ?? []).map(Number);
    expect(numbers.at(-1)).toBe(20000);
    expect(numbers.every((n, i) => i === 0 || n === (numbers[i - 1] as number) + 1)).toBe(true);
    expect(res.body.text.endsWith(await screenOf(agent.tmuxSocket, tabPane(big)))).toBe(true);

    // Asked for many times at once: a few are captured, the rest told to come back.
    const all = await Promise.all(
      Array.from({ length: 12 }, () => fetch(new URL(`/api/tabs/${big.id}/history`, agent.url), { headers: deviceHeaders(phone, 'GET', `/api/tabs/${big.id}/history`) })),
    );
    const statuses = all.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503), statuses.join()).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    const busy = all.find((r) => r.status === 503);
    if (!busy) throw new Error(`no request was turned away: ${statuses.join()}`);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(((await busy.json()) as ApiError).error).toMatch(/too many history captures at once/);
    for (const r of all.filter((r) => r.status === 200)) expect(((await r.json()) as PaneHistory).truncated).toBe(true);
    // Once they are answered, the slots are free again.
    expect((await history(`/api/tabs/${big.id}/history`)).status).toBe(200);
  });
});

describe("an outside Claude's pane, on the person's own tmux server", () => {
  const sessionStart = capturedHook('SessionStart');
  const newId = () => `${randomBytes(4).toString('hex')}-0000-4000-8000-${randomBytes(6).toString('hex')}`;
  const paneEnv = () => ({ PATH: process.env.PATH ?? '', HOME: agent.home, TERM: 'xterm-256color', LANG: 'C.UTF-8' });

  /** Reports a session as Claude's user-settings hook does, from a pane (or from no tmux); its key. */
  async function report(cwd: string, tmuxEnv: Record<string, string>): Promise<string> {
    const id = newId();
    const payload = { ...sessionStart, session_id: id, cwd, transcript_path: `/nonexistent/${id}.jsonl`, hook_event_name: 'SessionStart' };
    expect(await runHookScript(agent.dataDir, '--global SessionStart', payload, tmuxEnv)).toMatchObject({ code: 0 });
    const key = outsideSessionKey(id);
    await eventually(async () => (await api<OutsideSessionsResponse>(phone, 'GET', '/api/outside')).body.sessions.some((s) => s.key === key), 15_000, `${key} listed`);
    return key;
  }

  it('returns its history through its own server, and refuses once the pane is gone or another has its number', async () => {
    const dir = join(agent.home, 'outside-history');
    mkdirSync(dir, { recursive: true });
    const id = randomBytes(4).toString('hex');
    const marker = `outside-marker-${id}`;
    const pane = await own.open(dir, `printf '%s-%s\\n' outside-marker ${id}; seq 1 300; echo done-${id}; exec cat`, paneEnv());
    await waitForScreenLine(own.socket, pane, `done-${id}`);
    const key = await report(dir, { TMUX: await own.tmuxEnv(), TMUX_PANE: pane });

    const screen = await screenOf(own.socket, pane);
    expect(screen).not.toContain(marker);
    const res = await history(`/api/outside/${key}/history`);
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    const lines = res.body.text.split('\n');
    expect(lines.filter((l) => l === marker)).toHaveLength(1);
    expect(lines.slice(lines.indexOf(marker) + 1, lines.indexOf(marker) + 301)).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));
    expect(res.body.text.endsWith(screen)).toBe(true);

    // Another pane of that server, closed: no pane to read.
    const other = await own.open(dir, 'exec cat', paneEnv());
    const otherKey = await report(dir, { TMUX: await own.tmuxEnv(), TMUX_PANE: other });
    expect((await history(`/api/outside/${otherKey}/history`)).status).toBe(200);
    await tmux(own.socket, 'kill-pane', '-t', other);
    const gone = await history(`/api/outside/${otherKey}/history`);
    expect(gone.status).toBe(409);
    expect(gone.body.error).toBe('cannot reach its pane: its pane is gone');

    // The server ended and another started on the same socket: its first pane has the same
    // number, but it is not the pane the hooks named.
    await own.stop();
    const again = await own.open(dir, 'exec cat', paneEnv());
    expect(again).toBe(pane);
    const renumbered = await history(`/api/outside/${key}/history`);
    expect(renumbered.status).toBe(409);
    expect(renumbered.body.error).toBe('cannot reach its pane: its pane is gone');
  });

  it('refuses one started outside tmux (409), an unknown key (404) and what is no key (400)', async () => {
    const plain = await report(join(agent.home, 'plain'), {});
    const none = await history(`/api/outside/${plain}/history`);
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/started outside tmux/);
    const unknown = await history(`/api/outside/${outsideSessionKey(newId())}/history`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^no Claude session outside-/);
    for (const bad of ['tb-notoutside', 'outside-bad%21key', `outside-${'a'.repeat(65)}`]) {
      expect((await history(`/api/outside/${bad}/history`)).status, bad).toBe(400);
    }
  });
});
