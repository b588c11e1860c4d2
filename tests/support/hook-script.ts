/** The agent's installed hook script, run exactly as Claude runs a command hook. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { outsideSessionKey } from '../../protocol/hook-contract.js';
import { capturedHook } from './status.js';
import { collectOutput } from './child-output.js';

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `sh -c '<dataDir>/hooks/hook.sh' <args>` with the payload and a newline on stdin and only
 * PATH plus `env` (the pane's TMUX/TMUX_PANE) in its environment. `started` gets the process,
 * for a test that must end a held one itself.
 */
export function runHookScript(dataDir: string, args: string, payload: unknown, env: Record<string, string>, started?: (child: ChildProcess) => void): Promise<HookRun> {
  const script = join(dataDir, 'hooks', 'hook.sh');
  const child = spawn('/bin/sh', ['-c', `'${script}' ${args}`], { env: { PATH: process.env.PATH, ...env } });
  started?.(child);
  const output = collectOutput(child);
  child.stdin.on('error', () => undefined);
  child.stdin.end(`${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n`);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout: output.stdout, stderr: output.stderr })));
}

/**
 * A Claude session outside pocketmux as the browser tests make one without Claude: its project
 * folder under `home/code/`, and a transcript (the captured fixture) where Claude keeps it.
 */
export interface OutsideFixture {
  sessionId: string;
  key: string;
  cwd: string;
  transcript: string;
}

const TRANSCRIPT_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332', 'transcript.jsonl');

export function outsideFixture(home: string, project: string): OutsideFixture {
  const sessionId = randomUUID();
  const cwd = join(home, 'code', project);
  mkdirSync(cwd, { recursive: true });
  // Claude keeps its transcripts under its config dir, in a folder named for the project.
  const folder = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, `${sessionId}.jsonl`);
  copyFileSync(TRANSCRIPT_FIXTURE, transcript);
  return { sessionId, key: outsideSessionKey(sessionId), cwd: realpathSync(cwd), transcript };
}

/** A captured hook payload of `event`, as that session would send it. */
export function outsidePayload(who: OutsideFixture, event: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...capturedHook(event), session_id: who.sessionId, cwd: who.cwd, transcript_path: who.transcript, ...fields };
}
