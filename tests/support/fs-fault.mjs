/**
 * A preload for the agent's node (`NODE_OPTIONS=--import <this file>`) that injects a fault at
 * the file-system call the stores write with, leaving the agent's own code untouched. It only
 * acts once armed: the file named by POCKETMUX_FAULT_ARM exists and holds
 * `{"file": "<name in the data dir>", "action": "kill" | "enospc"}`. Then a write of that file's
 * temp copy (`<name>.<pid>.<hex>.tmp`, as writeFileAtomic makes it) either writes half its
 * bytes and SIGKILLs the process there, or fails with ENOSPC as a full disk would, for as long
 * as the arm file exists. Sync writes (writeSync) and async ones (FileHandle.writeFile) alike.
 */
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

const armFile = process.env.POCKETMUX_FAULT_ARM;

/** The armed fault for this path, or null. Read at each write: the test arms it when it wants. */
function faultFor(path) {
  if (!armFile || typeof path !== 'string' || !path.endsWith('.tmp')) return null;
  let fault;
  try {
    fault = JSON.parse(fs.readFileSync(armFile, 'utf8'));
  } catch {
    return null;
  }
  return basename(path).startsWith(`${fault.file}.`) ? fault : null;
}

function enospc(syscall) {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });
}

function dieHere() {
  // Where the fault fired, for the test to check it really did.
  fs.writeFileSync(`${armFile}.fired`, `${process.pid}\n`);
  process.kill(process.pid, 'SIGKILL');
}

const bytesOf = (data) => (typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

const openPaths = new Map();
const { openSync, writeSync, closeSync } = fs;

fs.openSync = function faultyOpenSync(path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  openPaths.set(fd, String(path));
  return fd;
};

fs.closeSync = function faultyCloseSync(fd) {
  openPaths.delete(fd);
  return closeSync.call(this, fd);
};

fs.writeSync = function faultyWriteSync(fd, data, ...rest) {
  const fault = faultFor(openPaths.get(fd));
  if (fault?.action === 'enospc') throw enospc('write');
  if (fault?.action === 'kill' && typeof data !== 'number') {
    const bytes = bytesOf(data);
    writeSync.call(this, fd, bytes.subarray(0, bytes.length >> 1));
    fs.fsyncSync(fd);
    dieHere();
  }
  return writeSync.call(this, fd, data, ...rest);
};

const openAsync = fsPromises.open;
fsPromises.open = async function faultyOpen(path, ...rest) {
  const handle = await openAsync.call(this, path, ...rest);
  const writeFile = handle.writeFile;
  handle.writeFile = async function faultyWriteFile(data, ...more) {
    const fault = faultFor(String(path));
    if (fault?.action === 'enospc') throw enospc('write');
    if (fault?.action === 'kill') {
      const bytes = bytesOf(data);
      await handle.write(bytes.subarray(0, bytes.length >> 1));
      await handle.sync();
      dieHere();
    }
    return writeFile.call(handle, data, ...more);
  };
  return handle;
};

// The agent imports these by name (`import { writeSync } from 'node:fs'`): the names follow.
syncBuiltinESMExports();
