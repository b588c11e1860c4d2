import { describe, expect, it } from 'vitest';
import { LABEL, launchdPlist, parsePlist, plistJob, xmlText } from '../../../../agent/service/launchd.js';
import { serviceCommand } from '../../../../agent/service/spec.js';
import { hostileSpec, spec } from '../../../support/service-spec.js';

describe('the launchd plist', () => {
  it('runs node on the script with the options, kept alive after a failure, logging in the data dir', () => {
    const s = spec();
    const plist = parsePlist(launchdPlist(s));
    expect(plist).toEqual({
      Label: LABEL,
      ProgramArguments: serviceCommand(s),
      EnvironmentVariables: { HOME: '/home/me', PATH: '/usr/bin:/bin' },
      WorkingDirectory: '/home/me',
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ThrottleInterval: 10,
      AbandonProcessGroup: true,
      ProcessType: 'Interactive',
      StandardOutPath: '/home/me/.pocketmux/logs/launchd.stdout.log',
      StandardErrorPath: '/home/me/.pocketmux/logs/launchd.stderr.log',
    });
  });

  it('escapes every hostile value, and reads back exactly', () => {
    const s = hostileSpec();
    const xml = launchdPlist(s);
    // No raw markup from the values: every < starts one of our tags, every & an entity.
    for (const tag of xml.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(/^<(\?xml .*\?|!DOCTYPE plist .*|!-- .* --|\/?(plist|dict|array|key|string|integer)( version="1\.0")?|true\/|false\/)>$/);
    expect(xml.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
    const job = plistJob(xml);
    expect(job?.command).toEqual(serviceCommand(s));
    expect((parsePlist(xml) as { EnvironmentVariables: unknown }).EnvironmentVariables).toEqual(Object.fromEntries(s.env));
    expect(xmlText(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });

  it('refuses malformed XML when reading one back', () => {
    expect(() => parsePlist('<plist version="1.0"><dict><key>a</key><string>x & y</string></dict></plist>')).toThrow();
    expect(() => parsePlist('<plist version="1.0"><dict><key>a</key><string>x</string></plist>')).toThrow();
    expect(() => parsePlist('<plist version="1.0"><array><string>x</string></array></plist><extra/>')).toThrow();
    expect(plistJob('not xml')).toBeNull();
  });
});
