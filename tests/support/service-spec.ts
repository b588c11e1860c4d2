/**
 * What the service tests install: a plain service spec, and one whose every path and value holds
 * what a unit file or a plist would otherwise take as syntax.
 */
import type { ServiceSpec } from '../../agent/service/spec.js';

/** Everything a path may hold that a unit file or a plist would otherwise take as syntax. */
export const HOSTILE = `sp ace 'single' "double" $HOME \${HOME} $$ %h %% %i \\back\\slash\\ ; & | < > ]]> &amp; * ? ~ # é 漢 🙂`;

export function spec(overrides: Partial<ServiceSpec> = {}): ServiceSpec {
  return {
    node: '/usr/bin/node',
    script: '/opt/pocketmux/bin/pocketmux.js',
    args: ['start', '--data-dir', '/home/me/.pocketmux'],
    env: [
      ['HOME', '/home/me'],
      ['PATH', '/usr/bin:/bin'],
    ],
    dataDir: '/home/me/.pocketmux',
    home: '/home/me',
    ...overrides,
  };
}

export function hostileSpec(): ServiceSpec {
  const dir = `/tmp/${HOSTILE}`;
  return spec({
    // systemd refuses quotes and backslashes in the program path alone (tested below).
    node: `/tmp/${HOSTILE.replace(/["'\\]/g, '_')}/node`,
    script: `${dir}/bin/pocketmux.js`,
    args: ['start', '--data-dir', `${dir}/data`, '--claude-bin', `${dir}/claude`, '--public-url', 'https://box.example.ts.net/', ';', '-', '@x', ''],
    env: [
      ['HOME', dir],
      ['PATH', `${dir}/bin:/usr/bin`],
      ['POCKETMUX_CLAUDE_ARGS', '--model "opus" $X %n'],
    ],
    dataDir: `${dir}/data`,
    home: dir,
  });
}
