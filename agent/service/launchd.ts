import { join } from 'node:path';
import { launchdLogFiles, type ServiceSpec, serviceCommand } from './spec.js';

/** The launchd job's label, and the plist's name in ~/Library/LaunchAgents. */
export const LABEL = 'dev.pocketmux.agent';

/** Written into every plist pocketmux makes: uninstall removes only a file that has it. */
export const PLIST_MARKER = 'Written by `pocketmux service install`; `pocketmux service uninstall` removes it.';

export function launchdPlistPath(home: string): string {
  return join(home, 'Library', 'LaunchAgents', `${LABEL}.plist`);
}

/** How long launchd waits before starting the agent again after it failed. */
export const LAUNCHD_THROTTLE_S = 10;

/** Character data and attribute values: the five XML entities. Control characters never get here. */
export function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/**
 * The launch agent. `KeepAlive` with `SuccessfulExit` false starts it again when it fails
 * (not after a clean stop); `AbandonProcessGroup` leaves the tmux server, and every session
 * in it, running when launchd stops the agent, as SIGTERM does for `pocketmux start`.
 */
export function launchdPlist(spec: ServiceSpec): string {
  const logs = launchdLogFiles(spec.dataDir);
  const string = (value: string) => `<string>${xmlText(value)}</string>`;
  const key = (name: string) => `<key>${xmlText(name)}</key>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${PLIST_MARKER} -->`,
    '<plist version="1.0">',
    '<dict>',
    `  ${key('Label')}`,
    `  ${string(LABEL)}`,
    `  ${key('ProgramArguments')}`,
    '  <array>',
    ...serviceCommand(spec).map((word) => `    ${string(word)}`),
    '  </array>',
    `  ${key('EnvironmentVariables')}`,
    '  <dict>',
    ...spec.env.flatMap(([name, value]) => [`    ${key(name)}`, `    ${string(value)}`]),
    '  </dict>',
    `  ${key('WorkingDirectory')}`,
    `  ${string(spec.home)}`,
    `  ${key('RunAtLoad')}`,
    '  <true/>',
    `  ${key('KeepAlive')}`,
    '  <dict>',
    `    ${key('SuccessfulExit')}`,
    '    <false/>',
    '  </dict>',
    `  ${key('ThrottleInterval')}`,
    `  <integer>${LAUNCHD_THROTTLE_S}</integer>`,
    `  ${key('AbandonProcessGroup')}`,
    '  <true/>',
    `  ${key('ProcessType')}`,
    `  ${string('Interactive')}`,
    `  ${key('StandardOutPath')}`,
    `  ${string(logs.stdout)}`,
    `  ${key('StandardErrorPath')}`,
    `  ${string(logs.stderr)}`,
    '</dict>',
    '</plist>',
  ];
  return `${lines.join('\n')}\n`;
}

export type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    const char = ENTITIES[name];
    if (char === undefined) throw new Error(`unknown XML entity ${whole}`);
    return char;
  });
}

/**
 * Reads an XML property list of the kinds pocketmux writes (dict, array, string, key,
 * integer, true, false), strictly: anything else, a stray `<` or `&`, or an unclosed
 * element is an error. Enough to read back an installed plist; not a general XML parser.
 */
export function parsePlist(xml: string): PlistValue {
  const body = xml
    .replace(/^\uFEFF?<\?xml[^?]*\?>/, '')
    .replace(/<!DOCTYPE[^>[]*>/, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const tokens = body.match(/<[^>]*>|[^<]+/g) ?? [];
  let i = 0;
  const skipSpace = () => {
    while (i < tokens.length && /^\s+$/.test(tokens[i] as string)) i++;
  };
  const text = (): string => {
    let out = '';
    while (i < tokens.length && !(tokens[i] as string).startsWith('<')) out += tokens[i++];
    if (/[<>]/.test(out) || /&(?!(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);)/.test(out)) throw new Error('stray markup in plist text');
    return unescapeXml(out);
  };
  const expect = (tag: string) => {
    skipSpace();
    if (tokens[i] !== tag) throw new Error(`expected ${tag}, found ${tokens[i] ?? 'the end'}`);
    i++;
  };
  const value = (): PlistValue => {
    skipSpace();
    const tag = tokens[i++];
    switch (tag) {
      case '<string>': {
        const s = text();
        expect('</string>');
        return s;
      }
      case '<string/>':
        return '';
      case '<integer>': {
        const s = text().trim();
        expect('</integer>');
        if (!/^-?\d+$/.test(s)) throw new Error(`bad integer ${s}`);
        return Number.parseInt(s, 10);
      }
      case '<true/>':
        return true;
      case '<false/>':
        return false;
      case '<array>': {
        const items: PlistValue[] = [];
        for (skipSpace(); tokens[i] !== '</array>'; skipSpace()) {
          if (i >= tokens.length) throw new Error('unclosed <array>');
          items.push(value());
        }
        i++;
        return items;
      }
      case '<array/>':
        return [];
      case '<dict>': {
        const dict: { [key: string]: PlistValue } = Object.create(null);
        for (skipSpace(); tokens[i] !== '</dict>'; skipSpace()) {
          if (i >= tokens.length) throw new Error('unclosed <dict>');
          expect('<key>');
          const name = text();
          expect('</key>');
          if (Object.hasOwn(dict, name)) throw new Error(`duplicate key ${name}`);
          dict[name] = value();
        }
        i++;
        return dict;
      }
      case '<dict/>':
        return {};
      default:
        throw new Error(`unexpected ${tag ?? 'end'} in plist`);
    }
  };
  expect('<plist version="1.0">');
  const root = value();
  expect('</plist>');
  skipSpace();
  if (i !== tokens.length) throw new Error('content after </plist>');
  return root;
}

/** The command an installed plist runs, and where launchd writes its output, or null when unreadable. */
export function plistJob(xml: string): { command: string[]; stdout: string | null; stderr: string | null } | null {
  try {
    const root = parsePlist(xml);
    if (typeof root !== 'object' || Array.isArray(root)) return null;
    const args = root.ProgramArguments;
    if (!Array.isArray(args) || !args.every((a): a is string => typeof a === 'string')) return null;
    const path = (v: PlistValue | undefined) => (typeof v === 'string' ? v : null);
    return { command: args, stdout: path(root.StandardOutPath), stderr: path(root.StandardErrorPath) };
  } catch {
    return null;
  }
}
