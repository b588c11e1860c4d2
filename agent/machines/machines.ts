import { generateKeyPairSync } from 'node:crypto';
import type { SessionResponse } from '../../protocol/api.js';
import type { AddMachineBody, MachineReach, MachineView } from '../../protocol/machines.js';
import { newId } from '../util/ids.js';
import type { Logger } from '../util/log.js';
import { decodeLinkCode } from './link-code.js';
import { answerError, type MachineAnswer, MachineClient, MachineError, machineRequest, type RawBody, transportProblem } from './machine-client.js';
import { type MachineRecord, type MachineStore, trustOf } from './machine-store.js';
import { MachineUnion } from './machine-union.js';

/**
 * Why a link could not be made or changed: the code is not one (or not usable), the machine
 * is linked already, there is no such machine, the other agent could not be reached or
 * trusted, or it refused (`busy`: too many wrong attempts there, try later).
 */
export type MachineLinkProblem = 'bad-code' | 'linked-already' | 'not-found' | 'unreachable' | 'refused' | 'busy';

export class MachineLinkError extends Error {
  constructor(
    readonly problem: MachineLinkProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a machine answered when last asked, kept in memory. */
interface Reach {
  reach: MachineReach;
  problem: string | null;
}

/** How long a check of every machine waits for each before calling it unreachable. */
const CHECK_TIMEOUT_MS = 3_000;

/** The credential cookie the other agent set when it paired this one: `name=value`, the first one. */
function credentialCookie(setCookie: string[] | undefined): { cookieName: string; credential: string } | null {
  for (const line of setCookie ?? []) {
    const m = /^([A-Za-z0-9_-]{1,64})=([A-Za-z0-9_-]{43});/.exec(line);
    if (m) return { cookieName: m[1] as string, credential: m[2] as string };
  }
  return null;
}

/**
 * The machines this agent linked: linking one with the code it printed, checking that each
 * answers, renaming, and removing one (which also takes this agent off that one's devices).
 */
export class Machines {
  private readonly reach = new Map<string, Reach>();
  private readonly clients = new Map<string, MachineClient>();
  /** Every linked machine's sessions, followed from the moment it is linked (or the agent starts). */
  readonly union: MachineUnion;

  constructor(
    private readonly store: MachineStore,
    /** The name this agent goes by in the other agent's devices list. */
    private readonly ownName: string,
    private readonly log: Logger,
    followBackoff?: { first: number; max: number },
  ) {
    this.union = new MachineUnion((record) => this.clientOf(record), log, followBackoff);
  }

  /** Starts following every machine linked before. */
  start(): void {
    for (const record of this.store.list()) this.union.follow(record);
  }

  dispose(): void {
    this.union.dispose();
  }

  view(record: MachineRecord): MachineView {
    const reach = this.reach.get(record.id) ?? { reach: 'unknown', problem: null };
    return { id: record.id, name: record.name, url: record.url, trust: record.trust, pin: record.pin, linkedAt: record.linkedAt, lastSeenAt: record.lastSeenAt, ...reach };
  }

  /** Every linked machine; with `check`, each is asked first whether it answers (all at once, a few seconds at most). */
  async list(check: boolean): Promise<MachineView[]> {
    if (check) await Promise.all(this.store.list().map((m) => this.check(m)));
    return this.store.list().map((m) => this.view(m));
  }

  clientOf(record: MachineRecord): MachineClient {
    let client = this.clients.get(record.id);
    if (!client) {
      client = new MachineClient({ url: record.url, pin: record.pin }, record);
      this.clients.set(record.id, client);
    }
    return client;
  }

  private async check(record: MachineRecord): Promise<void> {
    try {
      const answer = await Promise.race([
        this.clientOf(record).request('GET', '/api/session'),
        new Promise<never>((_, reject) => setTimeout(() => reject(new MachineError('unreachable', `no answer from ${new URL(record.url).host} in ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS).unref()),
      ]);
      if (answer.status !== 200) throw new MachineError('refused', answerError(answer));
      this.store.seen(record.id, new Date());
      this.reach.set(record.id, { reach: 'ok', problem: null });
    } catch (err) {
      const e = err instanceof MachineError ? err : new MachineError('unreachable', (err as Error).message);
      this.reach.set(record.id, { reach: e.reach, problem: e.message });
    }
  }

  /**
   * Links the machine a code names: checks the transport (TLS, or this machine's loopback),
   * claims the pairing in the code with a key made here for that machine alone, and keeps the
   * credential it gets. Nothing is kept when any step fails.
   */
  async link(body: AddMachineBody): Promise<MachineView> {
    const decoded = decodeLinkCode(body.code);
    if (!decoded.ok) throw new MachineLinkError('bad-code', decoded.error);
    const code = decoded.body;
    const problem = transportProblem(code.url);
    if (problem) throw new MachineLinkError('bad-code', problem);
    const linked = this.store.byUrl(code.url);
    if (linked) throw new MachineLinkError('linked-already', `${code.url} is linked already, as “${linked.name}” (${linked.id})`);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const jwk = publicKey.export({ format: 'jwk' });
    const target = { url: code.url, pin: code.pin };
    let answer: Awaited<ReturnType<typeof machineRequest>>;
    try {
      answer = await machineRequest(target, 'POST', '/api/pair', {
        secret: code.secret,
        deviceName: this.ownName,
        kind: 'machine',
        publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
      });
    } catch (err) {
      if (err instanceof MachineError) throw new MachineLinkError('unreachable', err.message);
      throw err;
    }
    if (answer.status !== 201) throw new MachineLinkError(answer.status === 429 ? 'busy' : 'refused', `the agent at ${new URL(code.url).host} refused the link: ${answerError(answer)}`);
    const cookie = credentialCookie(answer.headers['set-cookie']);
    const remoteDeviceId = (answer.body as Partial<SessionResponse> | null)?.deviceId;
    if (!cookie || typeof remoteDeviceId !== 'string' || !/^dv-[a-z0-9]{1,32}$/.test(remoteDeviceId)) {
      throw new MachineLinkError('refused', `the agent at ${new URL(code.url).host} answered the link with no credential: is it a pocketmux agent?`);
    }
    const record: MachineRecord = {
      id: newId('mc'),
      name: body.name ?? code.name,
      url: code.url,
      pin: code.pin,
      trust: trustOf(code.url, code.pin),
      ...cookie,
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      remoteDeviceId,
      linkedAt: new Date().toISOString(),
      lastSeenAt: new Date().toISOString(),
    };
    this.store.add(record);
    this.reach.set(record.id, { reach: 'ok', problem: null });
    this.union.follow(record);
    this.log.info('machine linked', { machine: record.id, url: record.url, trust: record.trust });
    return this.view(record);
  }

  rename(id: string, name: string): MachineView {
    const renamed = this.store.rename(id, name);
    if (!renamed) throw new MachineLinkError('not-found', `no linked machine ${id}`);
    this.union.renamed(renamed);
    return this.view(renamed);
  }

  /**
   * A request of a phone's for a session of a linked machine, made there once with this
   * agent's credential (never tried again: a decision must not be made twice), its answer
   * passed back as it came. Refused without trying while the machine is not reachable.
   */
  async forward(id: string, method: string, path: string, body: RawBody | undefined): Promise<MachineAnswer> {
    const record = this.store.get(id);
    if (!record) throw new MachineLinkError('not-found', `no linked machine ${id}: it was unlinked`);
    const reach = this.union.follower(id)?.reach;
    if (reach && reach.reach !== 'ok' && reach.reach !== 'unknown') {
      throw new MachineLinkError('unreachable', `“${record.name}” is not reachable (${reach.problem ?? reach.reach}): try again when it is back`);
    }
    try {
      return await this.clientOf(record).request(method, path, body);
    } catch (err) {
      if (err instanceof MachineError) throw new MachineLinkError('unreachable', `“${record.name}”: ${err.message}`);
      throw err;
    }
  }

  /**
   * Unlinks a machine: it is asked to forget this agent (its devices list loses it, and the
   * credential stops working there), then it is forgotten here whether or not it answered.
   */
  async remove(id: string): Promise<{ told: boolean; problem: string | null }> {
    const record = this.store.get(id);
    if (!record) throw new MachineLinkError('not-found', `no linked machine ${id}`);
    let told = false;
    let problem: string | null = null;
    try {
      const answer = await this.clientOf(record).request('DELETE', `/api/devices/${record.remoteDeviceId}`);
      told = answer.status === 204 || answer.status === 404;
      if (!told) problem = answerError(answer);
    } catch (err) {
      // Removed there already: nothing left to tell it.
      if (err instanceof MachineError && err.reach === 'revoked') told = true;
      else problem = (err as Error).message;
    }
    this.union.unfollow(id);
    this.store.remove(id);
    this.reach.delete(id);
    this.clients.delete(id);
    this.log.info('machine unlinked', { machine: id, told });
    return { told, problem };
  }
}
