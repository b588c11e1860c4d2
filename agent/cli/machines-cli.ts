/**
 * `pocketmux machines …`: link other pocketmux agents to this one (the home agent a phone is
 * paired with), list them with whether each answers, rename and remove them; and on the
 * other machine, `machines link-code`, the one-time code to link it with.
 */
import type { MachineLinkResponse, MachinesResponse, MachineView } from '../../protocol/machines.js';
import { API_ROUTES } from '../../protocol/routes.js';
import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { advisedCommand } from '../config/command-name.js';
import { CliError, call, connect, EXIT } from './remote.js';

export interface MachinesCliOptions {
  dataDir: string;
  json: boolean;
  name: string | undefined;
}

const USAGE = 'machines [list] | link-code | add CODE [--name N] | rename ID NAME | remove ID';

const TRUST_WORDS: Readonly<Record<MachineView['trust'], string>> = {
  pinned: 'its own certificate, pinned',
  ca: 'a certificate a CA vouches for',
  loopback: 'this machine (loopback)',
};

function out(text: string): void {
  process.stdout.write(text);
}

function machineLine(m: MachineView): string {
  const reach = m.reach === 'ok' ? 'answers' : m.reach === 'unknown' ? 'not asked' : m.reach;
  const seen = m.lastSeenAt ? `last answered ${m.lastSeenAt}` : 'never answered';
  const head = visibleText(`${m.id}  ${m.name}  ${m.url}  ${reach}  ${seen}`);
  return m.problem ? `${head}\n    ${visibleText(m.problem)}\n` : `${head}\n`;
}

export async function runMachines(args: string[], opts: MachinesCliOptions): Promise<number> {
  const [, sub = 'list', ...rest] = args;
  const conn = connect(opts.dataDir);
  const usage = () => new CliError(`usage: ${advisedCommand(USAGE, opts.dataDir)}`, EXIT.usage);
  switch (sub) {
    case 'list': {
      if (rest.length !== 0) throw usage();
      const { machines } = await call<MachinesResponse>(conn, API_ROUTES.machines, undefined, undefined, { check: '1' });
      if (opts.json) out(`${visibleJson(machines, 2)}\n`);
      else if (machines.length === 0) out(`no linked machines (link one: run \`pocketmux machines link-code\` on it, then \`${advisedCommand('machines add CODE', opts.dataDir)}\` here)\n`);
      else for (const m of machines) out(machineLine(m));
      return EXIT.ok;
    }
    case 'link-code': {
      if (rest.length !== 0) throw usage();
      const link = await call<MachineLinkResponse>(conn, API_ROUTES.newMachineLink);
      if (opts.json) {
        out(`${visibleJson(link, 2)}\n`);
        return EXIT.ok;
      }
      const minutes = Math.round(link.validForSeconds / 60);
      out(
        [
          'On the machine your phone is paired with (the home agent), run:',
          '',
          `  pocketmux machines add ${visibleText(link.code)}`,
          '',
          `It works once, for ${minutes} minutes. The home agent will check it talks to this one by ${TRUST_WORDS[link.trust]}.`,
          '',
        ].join('\n'),
      );
      return EXIT.ok;
    }
    case 'add': {
      if (rest.length !== 1) throw usage();
      const m = await call<MachineView>(conn, API_ROUTES.addMachine, undefined, { code: rest[0], ...(opts.name === undefined ? {} : { name: opts.name }) });
      if (opts.json) out(`${visibleJson(m, 2)}\n`);
      else out(`${visibleText(`linked “${m.name}” (${m.id}) at ${m.url}: ${TRUST_WORDS[m.trust]}${m.pin ? ` (SHA-256 ${m.pin})` : ''}`)}\n`);
      return EXIT.ok;
    }
    case 'rename': {
      if (rest.length !== 2) throw usage();
      const m = await call<MachineView>(conn, API_ROUTES.renameMachine, rest[0] as string, { name: rest[1] });
      out(opts.json ? `${visibleJson(m, 2)}\n` : `${visibleText(`${m.id} is now “${m.name}”`)}\n`);
      return EXIT.ok;
    }
    case 'remove': {
      if (rest.length !== 1) throw usage();
      const result = await call<{ told: boolean; problem: string | null }>(conn, API_ROUTES.removeMachine, rest[0] as string);
      if (opts.json) out(`${visibleJson(result, 2)}\n`);
      else if (result.told) out(`${visibleText(`removed ${rest[0]}: it no longer lists this agent among its devices`)}\n`);
      else out(`${visibleText(`removed ${rest[0]} here, but it could not be told (${result.problem ?? 'no answer'}): remove this agent from its devices there (\`pocketmux devices\`, then \`pocketmux devices revoke ID\`)`)}\n`);
      return EXIT.ok;
    }
    default:
      throw usage();
  }
}
