/**
 * `pocketmux changes ID [--turn|--session|--head] [--json]`: what a session changed, as the
 * phone's review shows it, from this machine's shell.
 */
import { type ChangeScope, type ChangesView, ChangesViewSchema, changesSummary, type FileChange } from '../../protocol/changes.js';
import { API_ROUTES } from '../../protocol/routes.js';
import { safeParse } from '../../protocol/safe-parse.js';
import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { advisedCommand } from '../config/command-name.js';
import { CliError, call, connect, EXIT } from './remote.js';

export interface ChangesCliOptions {
  dataDir: string;
  json: boolean;
  turn: boolean;
  session: boolean;
  head: boolean;
}

const SCOPE_WORDS: Readonly<Record<ChangeScope, string>> = { turn: 'this turn', session: 'this session', head: 'against HEAD' };

const LETTER: Readonly<Record<FileChange['kind'], string>> = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C', 'type-changed': 'T' };

export async function runChanges(args: string[], opts: ChangesCliOptions): Promise<number> {
  const scopes = (['turn', 'session', 'head'] as const).filter((s) => opts[s]);
  if (args.length !== 2 || scopes.length > 1) throw new CliError(`usage: ${advisedCommand('changes ID [--turn|--session|--head] [--json]', opts.dataDir)}`, EXIT.usage);
  const scope: ChangeScope = scopes[0] ?? 'turn';
  const conn = connect(opts.dataDir);
  const answer = await call<unknown>(conn, API_ROUTES.changes, args[1] as string, undefined, { scope });
  const parsed = safeParse(ChangesViewSchema, answer);
  if (!parsed.success) throw new CliError('the agent answered with changes this CLI cannot read; is it another version?', EXIT.failed);
  process.stdout.write(opts.json ? `${visibleJson(parsed.data, 2)}\n` : listing(parsed.data));
  return EXIT.ok;
}

function countsOf(file: FileChange): string {
  if (file.binary) return 'binary';
  if (file.commits !== undefined) return 'submodule';
  return `+${file.added ?? 0} \u2212${file.removed ?? 0}`;
}

function time(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The view as lines: what and since when, then a line a file. Every name goes out escaped. */
export function listing(view: ChangesView): string {
  if (view.source === 'none') return `${visibleText(`${SCOPE_WORDS[view.scope]}: cannot tell (${view.reason ?? 'unknown'})`)}\n`;
  const since = view.since !== undefined ? ` (since ${time(view.since)})` : view.head !== undefined ? ` (${view.head.slice(0, 12)})` : '';
  const lines = [`${SCOPE_WORDS[view.scope]}${since}, in ${view.root ?? '?'}: ${changesSummary(view.total)}`];
  for (const file of view.files) {
    const counts = countsOf(file);
    const from = file.from !== undefined ? `  (from ${file.from})` : '';
    const mode = file.before !== undefined && file.after !== undefined && file.before !== file.after ? `  [${file.before} \u2192 ${file.after}]` : '';
    lines.push(`  ${LETTER[file.kind]}  ${counts.padEnd(12)}${file.path}${from}${mode}`);
  }
  if (view.truncated) lines.push(`  \u2026 and ${view.total.files - view.files.length} more`);
  if (view.unrecorded.length > 0) lines.push(`  not recorded (over 8 MB): ${view.unrecorded.join(', ')}`);
  if (view.source === 'transcript') {
    if (view.elsewhere) lines.push(`  and ${view.elsewhere} file${view.elsewhere === 1 ? '' : 's'} outside this directory, not shown`);
    lines.push(`  not a git repository: these are Claude’s own edits (Edit, Write), from its transcript; what its commands changed is not seen`);
  }
  return `${lines.map((l) => visibleText(l)).join('\n')}\n`;
}
