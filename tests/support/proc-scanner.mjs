/**
 * Reads every process's command line and environment under /proc, pass after pass, looking
 * for secrets: what another user on the machine could do with a loop in a shell (the
 * environment is readable only by the same user, and is scanned as well).
 *
 * JSON lines on stdin: first `{"secrets": {"<name>": "<value>"}}` (never on the command line,
 * where this process would find them in itself), then `{"ask": "passes"}` (answered with
 * `{"passes": n}`, the passes completed) or `{"ask": "stop"}` (answered with the passes and
 * the findings, then it exits).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** @type {{ name: string; bytes: Buffer; value: string }[]} */
let secrets = [];
let passes = 0;
/** @type {Map<string, { secret: string; pid: number; where: string; command: string }>} */
const findings = new Map();

function reply(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** The process's arguments, each secret in them written as its name, for the report. */
function shownCommand(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/cmdline`).toString('utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(gone)';
  }
  for (const s of secrets) text = text.replaceAll(s.value, `<${s.name}>`);
  return text.slice(0, 400);
}

function scan() {
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    // Nothing to read on this pass.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    for (const where of ['cmdline', 'environ']) {
      let data;
      try {
        data = readFileSync(`/proc/${entry}/${where}`);
      } catch {
        // Gone meanwhile, or not ours to read.
        continue;
      }
      for (const s of secrets) {
        const key = `${entry}:${where}:${s.name}`;
        if (!findings.has(key) && data.includes(s.bytes)) findings.set(key, { secret: s.name, pid: Number(entry), where, command: shownCommand(entry) });
      }
    }
  }
  passes++;
  // setImmediate, not a loop: stdin is read between passes.
  setImmediate(scan);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.secrets) {
    secrets = Object.entries(message.secrets).map(([name, value]) => ({ name, value, bytes: Buffer.from(value) }));
    reply({ started: true });
    setImmediate(scan);
  } else if (message.ask === 'passes') {
    reply({ passes });
  } else if (message.ask === 'stop') {
    reply({ passes, findings: [...findings.values()] });
    process.exit(0);
  }
});
