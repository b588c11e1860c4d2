import { describe, expect, it } from 'vitest';
import { ServiceError, serviceCommand } from '../../../../agent/service/spec.js';
import {
  environmentLine,
  execLine,
  splitExecLine,
  systemdQuote,
  systemdUnit,
  systemdUnitPath,
  UNIT_MARKER,
  unitCommand,
  unitEnvironment,
  unitSettings,
} from '../../../../agent/service/systemd.js';
import { hostileSpec, spec } from '../../../support/service-spec.js';

describe('systemd unit quoting', () => {
  it('double-quotes every word, escapes \\ and ", doubles % always and $ in arguments', () => {
    expect(systemdQuote('plain', 'escape')).toBe('"plain"');
    expect(systemdQuote('a b', 'escape')).toBe('"a b"');
    expect(systemdQuote('say "hi"', 'escape')).toBe('"say \\"hi\\""');
    expect(systemdQuote('C:\\dir\\', 'escape')).toBe('"C:\\\\dir\\\\"');
    expect(systemdQuote('100% %h', 'escape')).toBe('"100%% %%h"');
    expect(systemdQuote(`$HOME \${X} $$`, 'escape')).toBe(`"$$HOME $\${X} $$$$"`);
    // The program path is taken literally by systemd: no $ doubling there.
    expect(systemdQuote('/opt/$x%y/node', 'literal')).toBe('"/opt/$x%%y/node"');
    expect(execLine(['/usr/bin/node', 'a$b'])).toBe('"/usr/bin/node" "a$$b"');
    // Environment= does no variable expansion: $ stays, % is doubled.
    expect(environmentLine('PATH', '/a b/$x%y')).toBe('"PATH=/a b/$x%%y"');
  });

  it('splits a hostile command back into exactly its words', () => {
    const s = hostileSpec();
    const unit = systemdUnit(s);
    expect(unitCommand(unit)).toEqual(serviceCommand(s));
    expect(unitEnvironment(unit)).toEqual(Object.fromEntries(s.env));
    // One line each: nothing in the values ended a line or started a new setting.
    expect(unitSettings(unit, 'ExecStart')).toHaveLength(1);
    expect(unitSettings(unit, 'Environment')).toHaveLength(s.env.length);
    expect(unit.split('\n').filter((l) => l.startsWith('['))).toEqual(['[Unit]', '[Service]', '[Install]']);
  });

  it('reads systemd syntax it did not write the way systemd does', () => {
    expect(splitExecLine(`/bin/echo 'single quoted' "a\\tb" plain\\x41 %% $$`)).toEqual(['/bin/echo', 'single quoted', 'a\tb', 'plainA', '%', '$']);
    expect(() => splitExecLine('/bin/echo "unbalanced')).toThrow(/unbalanced/);
    expect(() => splitExecLine('/bin/echo %h')).toThrow(/specifier/);
    expect(() => splitExecLine('/bin/echo $HOME')).toThrow(/variable/);
  });
});

describe('the systemd user unit', () => {
  const unit = systemdUnit(spec({ args: ['start', '--data-dir', '/home/me/.pocketmux', '--port', '8420'] }));
  it('runs node on the script with the options, restarts on failure, logs to the journal', () => {
    expect(unit.split('\n')[0]).toBe(UNIT_MARKER);
    expect(unitSettings(unit, 'ExecStart')).toEqual(['"/usr/bin/node" "/opt/pocketmux/bin/pocketmux.js" "start" "--data-dir" "/home/me/.pocketmux" "--port" "8420"']);
    expect(unitSettings(unit, 'Environment')).toEqual(['"HOME=/home/me"', '"PATH=/usr/bin:/bin"']);
    expect(unitSettings(unit, 'Restart')).toEqual(['on-failure']);
    expect(unitSettings(unit, 'RestartSec')).toEqual(['10']);
    expect(unitSettings(unit, 'StartLimitBurst')).toEqual(['5']);
    expect(unitSettings(unit, 'StartLimitIntervalSec')).toEqual(['300']);
    expect(unitSettings(unit, 'StandardOutput')).toEqual(['journal']);
    expect(unitSettings(unit, 'StandardError')).toEqual(['journal']);
    expect(unitSettings(unit, 'WantedBy')).toEqual(['default.target']);
    // Stopping the service stops the agent, not the tmux server with everyone's sessions.
    expect(unitSettings(unit, 'KillMode')).toEqual(['process']);
    expect(unit.endsWith('\n')).toBe(true);
  });

  it('refuses a node path systemd cannot run: quotes, backslashes, not normalized', () => {
    for (const node of [`/opt/it's/node`, '/opt/"q"/node', '/opt/back\\slash/node', '/opt//node', '/opt/./node']) {
      expect(() => systemdUnit(spec({ node }))).toThrow(ServiceError);
    }
    expect(() => systemdUnit(spec({ node: '/opt/sp ace/$x/%h/node' }))).not.toThrow();
  });

  it('goes in $XDG_CONFIG_HOME/systemd/user when that is absolute, else ~/.config', () => {
    expect(systemdUnitPath({}, '/home/me')).toBe('/home/me/.config/systemd/user/pocketmux.service');
    expect(systemdUnitPath({ XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe('/cfg/systemd/user/pocketmux.service');
    expect(systemdUnitPath({ XDG_CONFIG_HOME: 'relative' }, '/home/me')).toBe('/home/me/.config/systemd/user/pocketmux.service');
  });
});
