/**
 * How long a CLI command takes from start to exit, beside `node -e 0` (the floor no command can
 * go under): `--version` and `--help`, which need no agent, and the loopback commands against a
 * real agent with a few tabs. Rounds take the commands in turn, the order rotating every round,
 * so machine noise hits all of them. The part runs three times, each on a fresh agent: the
 * section shows all three runs, the spread rather than the best of them. With
 * POCKETMUX_BENCH_BASELINE naming another build's `bin/pocketmux.js`, that build's CLI runs
 * the same commands in the same rounds, against the same agent.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { AGENT_BIN, agentEnv, type AgentHandle, runCli, startAgent } from '../support/agent.js';
import { quantile } from '../support/stats.js';

export const CLI_START_BENCH = {
  /** Separate runs, each on a fresh agent. */
  RUNS: 3,
  /** Timed rounds per run; every command runs once a round. */
  ROUNDS: 30,
  /** Untimed rounds first: the first runs read everything from disk. */
  WARMUP: 2,
  /** Shell tabs the agent has while `tabs` lists them. */
  TABS: 3,
} as const;

/** What each command must stay under, above `node -e 0`'s p50. */
export const CLI_START_GOALS_MS: Readonly<Record<string, number>> = { '--version': 150, tabs: 300 };

export interface CommandTimes {
  /** How the command is shown: `node -e 0`, `pocketmux tabs`… */
  label: string;
  /** The goal's key in CLI_START_GOALS_MS, if it has one. */
  goal?: string;
  p50: number;
  p90: number;
  /** p50 minus `node -e 0`'s p50 of the same run. */
  overNode: number;
  /** The same command of the baseline build, when there is one. */
  baseline?: { p50: number; p90: number; overNode: number };
}

export interface CliStartRun {
  rounds: number;
  commands: CommandTimes[];
}

export interface CliStartResult {
  runs: CliStartRun[];
  /** Whether a baseline build ran beside this one. */
  baseline: boolean;
}

interface Command {
  label: string;
  goal?: string;
  /** Arguments after the script; null for `node -e 0`. */
  args: string[] | null;
}

/** One process from spawn to exit, in ms; any exit but 0 stops the bench. */
async function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}: ${stderr}`);
  return ms;
}

async function oneRun(baselineBin: string | null, progress: (line: string) => void): Promise<CliStartRun> {
  const agent: AgentHandle = await startAgent();
  try {
    const env = agentEnv(agent);
    const tabIds: string[] = [];
    for (let i = 0; i < CLI_START_BENCH.TABS; i++) {
      const created = await runCli(['tab', 'new', agent.home, '--data-dir', agent.dataDir], env);
      if (created.code !== 0) throw new Error(`tab new failed: ${created.stderr}`);
      tabIds.push(created.stdout.trim());
    }
    const remote = (...args: string[]) => [...args, '--data-dir', agent.dataDir];
    const commands: Command[] = [
      { label: 'node -e 0', args: null },
      { label: 'pocketmux --version', goal: '--version', args: ['--version'] },
      { label: 'pocketmux --help', args: ['--help'] },
      { label: `pocketmux tabs (${CLI_START_BENCH.TABS} tabs)`, goal: 'tabs', args: remote('tabs') },
      { label: 'pocketmux tab status ID', args: remote('tab', 'status', tabIds[0] as string) },
      { label: 'pocketmux approvals', args: remote('approvals') },
      { label: 'pocketmux pair', args: remote('pair') },
    ];
    const bins = baselineBin ? [AGENT_BIN, baselineBin] : [AGENT_BIN];
    // Every (command, build) pair; node -e 0 once, as it does not depend on the build.
    const jobs = commands.flatMap((command, c) => (command.args === null ? [{ c, b: 0 }] : bins.map((_, b) => ({ c, b }))));
    const samples = jobs.map(() => [] as number[]);
    for (let round = 0; round < CLI_START_BENCH.WARMUP + CLI_START_BENCH.ROUNDS; round++) {
      for (let k = 0; k < jobs.length; k++) {
        const j = (k + round) % jobs.length;
        const { c, b } = jobs[j] as { c: number; b: number };
        const args = (commands[c] as Command).args;
        const ms = await timeProcess(args === null ? ['-e', '0'] : [bins[b] as string, ...args], env);
        if (round >= CLI_START_BENCH.WARMUP) (samples[j] as number[]).push(ms);
      }
      if ((round + 1) % 10 === 0) progress(`cli start: round ${round + 1 - CLI_START_BENCH.WARMUP} of ${CLI_START_BENCH.ROUNDS}`);
    }
    const times = (c: number, b: number) => {
      const s = samples[jobs.findIndex((job) => job.c === c && job.b === b)] as number[];
      return { p50: quantile(s, 0.5), p90: quantile(s, 0.9) };
    };
    const floor = times(0, 0).p50;
    return {
      rounds: CLI_START_BENCH.ROUNDS,
      commands: commands.map((command, c) => {
        const own = times(c, 0);
        const row: CommandTimes = { label: command.label, ...(command.goal ? { goal: command.goal } : {}), ...own, overNode: own.p50 - floor };
        if (baselineBin && command.args !== null) {
          const base = times(c, 1);
          row.baseline = { ...base, overNode: base.p50 - floor };
        }
        return row;
      }),
    };
  } finally {
    await agent.stop();
  }
}

export async function cliStartBench(progress: (line: string) => void): Promise<CliStartResult> {
  const baselineBin = process.env.POCKETMUX_BENCH_BASELINE ?? null;
  const runs: CliStartRun[] = [];
  for (let i = 0; i < CLI_START_BENCH.RUNS; i++) {
    progress(`cli start: run ${i + 1} of ${CLI_START_BENCH.RUNS}`);
    runs.push(await oneRun(baselineBin, progress));
  }
  return { runs, baseline: baselineBin !== null };
}

export const CLI_START_HEADING = 'Starting the CLI';

export function cliStartSection(r: CliStartResult, runLine: string): string {
  const f0 = (x: number) => x.toFixed(0);
  const each = (pick: (row: CommandTimes) => number | undefined, row: number) =>
    r.runs
      .map((run) => pick(run.commands[row] as CommandTimes))
      .map((x) => (x === undefined ? '–' : f0(x)))
      .join(' / ');
  const first = r.runs[0] as CliStartRun;
  const goalCell = (row: number) => {
    const key = first.commands[row]?.goal;
    const goal = key === undefined ? undefined : CLI_START_GOALS_MS[key];
    if (goal === undefined) return '';
    const met = r.runs.filter((run) => (run.commands[row] as CommandTimes).overNode < goal).length;
    return `< ${goal} ms above node’s: ${met === r.runs.length ? 'met' : `**not met** (met in ${met} of ${r.runs.length} runs)`}`;
  };
  const rows = first.commands.map((cmd, row) => {
    const isFloor = row === 0;
    const over = isFloor ? '' : `**${each((c) => c.overNode, row)} ms**`;
    const base = r.baseline ? ` ${isFloor ? '' : `${each((c) => c.baseline?.p50, row)} ms`} | ${isFloor ? '' : `${each((c) => c.baseline?.overNode, row)} ms`} |` : '';
    return `| \`${cmd.label}\` | ${each((c) => c.p50, row)} ms | ${each((c) => c.p90, row)} ms | ${over} |${base} ${goalCell(row)} |`;
  });
  const baseHead = r.baseline ? ' baseline build: p50 | baseline: p50 − node’s |' : '';
  return `## ${CLI_START_HEADING}

${runLine}

This part ran ${r.runs.length} times; each cell gives runs ${r.runs.map((_, i) => i + 1).join(' / ')}, each of ${first.rounds} timed\nrounds on a fresh agent with ${CLI_START_BENCH.TABS} shell tabs.

| command | p50 | p90 | p50 − \`node -e 0\`’s p50 |${baseHead} goal |
| --- | --- | --- | --- |${r.baseline ? ' --- | --- |' : ''} --- |
${rows.join('\n')}

How it is measured: each command is a new \`node\` process, timed from spawn to exit by the
bench process, as a script calling it would wait for it; \`node -e 0\` is the floor, the time
node needs to start and stop with nothing to load. In each round every command runs once, the
order rotating every round, after ${CLI_START_BENCH.WARMUP} untimed rounds. The loopback commands run against a
real agent (\`tests/support/agent.ts\`); \`tabs\` lists its ${CLI_START_BENCH.TABS} tabs, \`tab status\` reads one of
them, \`approvals\` finds none open and \`pair\` makes a pairing and draws its QR code. Each run
starts a fresh agent; a goal counts as met only when every run met it. Every figure moves
with the machine's load (see the load average), \`node -e 0\`'s too, which is why the goals
are on the difference: on this machine busy with five other builds and test runs (load
average 13 to 23), \`--version\` was 55 to 177 ms above node's and \`tabs\` 200 to 539 ms.
Before each command loaded only its own code, \`main.js\` imported the whole agent (Express,
web-push, node-pty, every route) for every command, and the loopback commands used \`fetch\`: in
one run of 8 rounds with that build's CLI beside this one's (\`POCKETMUX_BENCH_BASELINE\`,
load average about 18), \`--version\` took 1,768 ms above \`node -e 0\`'s p50 and \`tabs\` 2,408 ms,
against 13 and 232 ms for this build in the same rounds. Of what is left for \`tabs\` and \`tab
status\`, much is the agent's: its \`GET /api/workspaces\` runs \`tmux list-panes\` before it
answers, which took 60 to 390 ms a request at that load, timed from a client in one process.${
    r.baseline
      ? ` The baseline columns are another build's CLI (\`POCKETMUX_BENCH_BASELINE\`) running the same
commands in the same rounds, against the same agent.`
      : ''
  }`;
}
