import { parseArgs } from 'node:util';
import { agentVersion } from '../config/package.js';
import { expandHome } from '../config/home.js';
import type { ConfigInput } from '../config/config.js';
import { advisedCommand, commandName } from '../config/command-name.js';
import { helpTopic } from './help-topic.js';
import { APPROVAL_COMMANDS } from './approval-commands.js';
import { commandModules as load, startErrorClasses } from './command-modules.js';
import { visibleJson, visibleLines, visibleText } from '../../protocol/safe-text.js';

const HELP = `pocketmux: Claude Code sessions in your pocket

Usage:
  pocketmux [start] [options]   start the agent (the default command)
  pocketmux pair                a QR code and short code to pair another device
  pocketmux doctor [options]    check what pocketmux needs, with fixes, for the setup these start
                                options make (HTTPS and push only off loopback); exit 1 on a FIX
  pocketmux devices [--json]    paired devices;  pocketmux devices revoke ID
  pocketmux machines [list]     other agents this one follows, and whether each answers
  pocketmux machines link-code  on another machine: a one-time code to link it to your home agent
  pocketmux machines add CODE [--name N]
                                link the machine that printed CODE (over TLS it verifies)
  pocketmux machines rename ID NAME;  pocketmux machines remove ID
  pocketmux tabs [--json]       every tab and its state, from the running agent
  pocketmux tab new [--claude | --codex] [--name N] [--permission-mode M] [--resume ID] DIR
  pocketmux tab send ID TEXT [--no-enter]
  pocketmux tab status ID [--wait-for STATE] [--timeout SECONDS]
                                a Claude or Codex tab's state; a shell tab's command, name and directory
                                (--wait-for on a shell tab no claude reports from: exit 2)
  pocketmux tab close ID
  pocketmux approvals [--wait] [--timeout SECONDS]
                                what Claude is waiting on: permissions, questions, dialogs
  pocketmux approve ID [--always]
                                let the tool run (--always: and from now on, as Claude offered)
  pocketmux deny ID [--message TEXT]
                                refuse it, or a question; Claude is told TEXT
  pocketmux answer ID LABEL...  answer a question: one LABEL per question, an option's
                                label or number ("Red,Blue" for several) or any text;
                                a plan or dialog: its option number
  pocketmux changes ID [--turn|--session|--head]
                                what a session (a tab's id, an outside session's key) changed:
                                this turn (the default), this session, or against HEAD
      (these commands talk to the agent of --data-dir over loopback; all take --json;
       exit 3 when no agent runs, 4 when --wait-for or --wait times out (default 600 s),
       1 when the agent refuses, e.g. an approval already answered elsewhere)
  pocketmux service install [options]
                                run the agent at login (systemd user unit, launchd agent) with
                                these start options; restarted if it fails
  pocketmux service uninstall   stop it and remove what install wrote
  pocketmux service status [--json]
                                installed? running (exit 0, else 3)? where it logs
  pocketmux hooks install       add pocketmux's hooks to Claude's user settings (~/.claude/settings.json,
                                backed up first), so every claude on this machine reports, not only tabs
  pocketmux hooks uninstall     remove exactly those;  pocketmux hooks status [--json]
                                with --codex: the same in Codex's ~/.codex/hooks.json, trusted by codex itself
  pocketmux help [COMMAND]      this help, or the part about one command (also: COMMAND --help)
  pocketmux --version

Options (each also settable by an environment variable):
  --port <n>           port to listen on (POCKETMUX_PORT, default 8420; 0 picks a free one)
  --host <addr>        address to bind (POCKETMUX_HOST, default 127.0.0.1)
  --data-dir <dir>     where pocketmux keeps its state (POCKETMUX_DIR, default ~/.pocketmux)
  --tmux-socket <name> name of pocketmux's own tmux server (POCKETMUX_TMUX_SOCKET, default pocketmux)
  --claude-bin <path>  the claude command for Claude tabs (POCKETMUX_CLAUDE, default claude)
  --codex-bin <path>   the codex command for Codex tabs (POCKETMUX_CODEX, default codex)
  --tls-cert <pem> --tls-key <pem>
                       serve HTTPS (POCKETMUX_TLS_CERT, POCKETMUX_TLS_KEY); phones need it
  --public-url <url>   the URL phones use, carried by the QR code (POCKETMUX_PUBLIC_URL)
  --tailscale          serve through \`tailscale serve\` on this machine's tailnet HTTPS name
                       (POCKETMUX_TAILSCALE=1); undone when the agent stops
`;

function runAsHint(): string {
  const cmd = commandName();
  return cmd === 'pocketmux' ? '' : `Run these as "${cmd} …": no pocketmux on your PATH is this installation.\n\n`;
}

/** HELP, saying how to run it when the `pocketmux` on PATH is not this installation. */
function help(): string {
  return HELP.replace('\n\n', `\n\n${runAsHint()}`);
}

/** The part of HELP about one command; null when there is no such command. */
function commandHelp(command: string): string | null {
  const topic = helpTopic(HELP, command);
  return topic === null ? null : `${runAsHint()}${topic}`;
}

/** Errors a person can fix get one clear line and exit code 2; anything else is a bug. */
async function isUserError(err: unknown): Promise<boolean> {
  return (await startErrorClasses()).some((type) => err instanceof type);
}

/** The start options as the config reads them: `doctor` checks the setup `start` would make with them. */
function configFlags(values: ReturnType<typeof parseArgs>['values']): ConfigInput {
  return {
    port: values.port as string | undefined,
    host: values.host as string | undefined,
    dataDir: values['data-dir'] as string | undefined,
    tmuxSocket: values['tmux-socket'] as string | undefined,
    claudeBin: values['claude-bin'] as string | undefined,
    codexBin: values['codex-bin'] as string | undefined,
    tlsCert: values['tls-cert'] as string | undefined,
    tlsKey: values['tls-key'] as string | undefined,
    publicUrl: values['public-url'] as string | undefined,
    tailscale: values.tailscale as boolean | undefined,
  };
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'tmux-socket': { type: 'string' },
        'claude-bin': { type: 'string' },
        'codex-bin': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'public-url': { type: 'string' },
        tailscale: { type: 'boolean' },
        json: { type: 'boolean' },
        claude: { type: 'boolean' },
        codex: { type: 'boolean' },
        name: { type: 'string' },
        'permission-mode': { type: 'string' },
        resume: { type: 'string' },
        'wait-for': { type: 'string' },
        timeout: { type: 'string' },
        'no-enter': { type: 'boolean' },
        always: { type: 'boolean' },
        message: { type: 'string' },
        wait: { type: 'boolean' },
        turn: { type: 'boolean' },
        session: { type: 'boolean' },
        head: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    process.stderr.write(`pocketmux: ${visibleText((err as Error).message)}\n\n${help()}`);
    return 2;
  }
  const { values, positionals } = parsed;
  // `help`, `help COMMAND`, and `COMMAND --help`: that command's part, or all of it.
  if (values.help || positionals[0] === 'help') {
    const topic = positionals[0] === 'help' ? positionals[1] : positionals[0];
    if (positionals[0] === 'help' && positionals.length > 2) {
      process.stderr.write(`pocketmux: help takes one command, like: ${commandName()} help tab\n`);
      return 2;
    }
    const text = topic === undefined || topic === 'help' ? help() : commandHelp(topic);
    if (text === null) {
      process.stderr.write(`pocketmux: no command "${visibleText(topic as string)}"\n\n${help()}`);
      return 2;
    }
    process.stdout.write(text);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${agentVersion()}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'start';
  if (command === 'tabs' || command === 'tab' || command === 'pair' || command === 'devices' || command === 'changes' || command === 'machines' || APPROVAL_COMMANDS.has(command)) {
    const { CliError, dataDirFrom, EXIT, runRemote } = await load.remote();
    const timeout = (values.timeout as string | undefined) ?? '600';
    if (!/^\d+$/.test(timeout)) {
      process.stderr.write('pocketmux: --timeout takes whole seconds\n');
      return EXIT.usage;
    }
    const dataDir = dataDirFrom(values['data-dir'] as string | undefined, process.env, expandHome);
    try {
      if (command === 'machines') {
        const { runMachines } = await load.machines();
        return await runMachines(positionals, { dataDir, json: values.json === true, name: values.name as string | undefined });
      }
      if (command === 'changes') {
        const { runChanges } = await load.changes();
        return await runChanges(positionals, { dataDir, json: values.json === true, turn: values.turn === true, session: values.session === true, head: values.head === true });
      }
      if (APPROVAL_COMMANDS.has(command)) {
        const { runApprovals } = await load.approvals();
        return await runApprovals(positionals, {
          dataDir,
          json: values.json === true,
          wait: values.wait === true,
          timeoutS: Number(timeout),
          always: values.always === true,
          message: values.message as string | undefined,
        });
      }
      return await runRemote(positionals, {
        dataDir,
        json: values.json === true,
        claude: values.claude === true,
        codex: values.codex === true,
        name: values.name as string | undefined,
        permissionMode: values['permission-mode'] as string | undefined,
        resume: values.resume as string | undefined,
        waitFor: values['wait-for'] as string | undefined,
        timeoutS: Number(timeout),
        enter: values['no-enter'] !== true,
      });
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      if (values.json === true) process.stdout.write(`${visibleJson({ error: err.message })}\n`);
      process.stderr.write(`pocketmux: ${visibleText(err.message)}\n`);
      return err.code;
    }
  }
  if (command === 'service') return (await load.service()).runService(positionals.slice(1), values);
  if (command === 'hooks') {
    const { ConfigError, resolveConfig } = await load.config();
    try {
      const config = resolveConfig({ dataDir: values['data-dir'] as string | undefined, codexBin: values['codex-bin'] as string | undefined }, process.env);
      if (values.codex === true) {
        const { runCodexHooks } = await load.codexHooks();
        return await runCodexHooks(positionals.slice(1), { dataDir: config.dataDir, codexHome: config.codexHome, codexBin: config.codexBin, env: process.env, json: values.json === true });
      }
      const { runHooks } = await load.hooks();
      return await runHooks(positionals.slice(1), { dataDir: config.dataDir, claudeConfigDir: config.claudeConfigDir, json: values.json === true });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`pocketmux: ${visibleLines(err.message)}\n`);
      return 2;
    }
  }
  if (command === 'doctor' && positionals.length === 1) {
    const { ConfigError, resolveConfig } = await load.config();
    const { doctor, formatChecks } = await load.doctor();
    try {
      const config = resolveConfig(configFlags(values), process.env);
      const checks = await doctor(config);
      process.stdout.write(values.json === true ? `${visibleJson(checks, 2)}\n` : formatChecks(checks));
      return checks.every((c) => c.ok) ? 0 : 1;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`pocketmux: ${visibleLines(err.message)}\n`);
      return 2;
    }
  }
  if (command !== 'start' || positionals.length > 1) {
    process.stderr.write(`pocketmux: unknown command "${visibleText(positionals.join(' '))}"\n\n${help()}`);
    return 2;
  }

  try {
    const { resolveConfig } = await load.config();
    const config = resolveConfig(configFlags(values), process.env);
    // Listening for a stop from the first moment: a service manager may ask while the agent is
    // still starting, and the default would kill it by signal, before it let go of anything.
    let stopSignal: NodeJS.Signals | null = null;
    let stopRequested: (signal: NodeJS.Signals) => void = (signal) => {
      stopSignal = signal;
    };
    const onSignal = (signal: NodeJS.Signals) => stopRequested(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const [{ startAgent }, { pairingText, qrStyleFor }] = await Promise.all([load.agent(), load.pairingText()]);
    const agent = await startAgent(config);
    // A service's stdout is kept (the journal): a pairing secret must not be in it.
    const pairing = config.service
      ? `Pair a device: ${visibleText(advisedCommand('pair', config.dataDir))}\n`
      : await pairingText(await agent.newPairing(), { dataDir: config.dataDir, qr: qrStyleFor(process.stdout, process.env) });
    process.stdout.write(
      `pocketmux ${agentVersion()} is running at ${visibleText(agent.url)}\n` +
        pairing +
        `Data: ${visibleText(config.dataDir)}  tmux socket: ${visibleText(config.tmuxSocket)}\n`,
    );

    await new Promise<void>((resolve) => {
      stopRequested = (signal: NodeJS.Signals) => {
        process.stderr.write(`pocketmux: ${signal}, stopping (tmux sessions keep running)\n`);
        agent.dispose().then(resolve, resolve);
      };
      if (stopSignal) stopRequested(stopSignal);
    });
    return 0;
  } catch (err) {
    if (await isUserError(err)) {
      process.stderr.write(`pocketmux: ${visibleLines((err as Error).message)}\n`);
      return 2;
    }
    process.stderr.write(`pocketmux: failed to start: ${visibleLines((err as Error).stack ?? String(err))}\n`);
    return 1;
  }
}
