/**
 * One process of a half-open flood (`half-open-flood.ts` starts and reads it): it keeps
 * `connections` TCP connections to 127.0.0.1:<port> open or opening, each sending
 * `GET / HTTP/1.1` and a Host line and nothing more, and opens a new one for each the agent
 * closes. Plain JavaScript, run by node itself, so that its own descriptors are not the test
 * process's: a process may hold no more than its limit (20,000 on the machine the hole was
 * found on), so a flood that large takes more than one.
 *
 * Bounded three ways: `seconds` after it starts, or after `maxAttempts` connects, it opens no
 * more; at `seconds` it closes everything and exits, and so it does when its stdin ends (its
 * parent gone). The line `hold` on stdin stops opening new connections, gives up the connects
 * still under way (a dropped SYN is sent again for half a minute) and keeps the open ones.
 * Every 250 ms it prints one JSON line of counts.
 */
import { connect } from 'node:net';

const options = JSON.parse(process.argv[2] ?? '{}');
const { port, connections, seconds, maxAttempts } = options;
/** Connects under way at once: more only wait in the kernel's queue of half-made connections. */
const inflightMax = options.inflight ?? 512;
const request = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;
const endsAt = Date.now() + seconds * 1000;

const counts = { open: 0, opening: 0, opened: 0, cutByAgent: 0, failed: 0, attempts: 0 };
const sockets = new Set();
/** Sockets still connecting. */
const pending = new Set();
let holding = false;
let ending = false;

function mayOpen() {
  return !holding && !ending && counts.attempts < maxAttempts && Date.now() < endsAt;
}

function openOne() {
  counts.attempts++;
  counts.opening++;
  const socket = connect({ port, host: '127.0.0.1' });
  sockets.add(socket);
  pending.add(socket);
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    pending.delete(socket);
    counts.opening--;
    counts.open++;
    counts.opened++;
    socket.write(request);
    fill();
  });
  // Whatever the agent answers (a 408 or nothing) is read and dropped.
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    sockets.delete(socket);
    pending.delete(socket);
    if (connected) {
      counts.open--;
      if (!ending) counts.cutByAgent++;
    } else {
      counts.opening--;
      if (!holding) counts.failed++;
    }
    // Not at once: a refused connect would otherwise be retried in a tight loop.
    setImmediate(fill);
  });
}

function fill() {
  while (mayOpen() && counts.opening < inflightMax && counts.open + counts.opening < connections) openOne();
}

function report() {
  process.stdout.write(`${JSON.stringify({ ...counts, holding })}\n`);
}

function end() {
  if (ending) return;
  ending = true;
  clearInterval(reporter);
  report();
  for (const socket of sockets) socket.destroy();
  process.exit(0);
}

const reporter = setInterval(() => {
  report();
  if (Date.now() >= endsAt) end();
}, 250);

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  if (holding || !input.includes('hold\n')) return;
  holding = true;
  for (const socket of pending) socket.destroy();
});
process.stdin.on('end', end);
fill();
