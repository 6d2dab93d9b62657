/**
 * The licence installed in a data folder (`licence.token`) and the verdict on
 * it. The signature is verified once per installed token and the expiry
 * judged at every status call, so a licence that expires while the service
 * runs turns to demo mode without a restart. A missing, damaged or foreign
 * token never stops the service: it runs in demo mode and says why
 * (docs/licence.md).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type WallClock } from '@klvscope/core';
import { removeOrphanedTemporaries, writeFileAtomic } from '@klvscope/core/store';
import { LicenceError } from './licence-error.js';
import { checkLicenceToken, hasExpired, licenceVerdictAt, type LicenceStatus, type LicenceVerdict, type TokenCheck } from './licence-token.js';
import { loadNodeId } from './node-identity.js';
import { loadVendorPublicKey, type VendorPublicKey } from './vendor-public-key.js';

export const LICENCE_FILE_NAME = 'licence.token';

/** Owner-only: a token is bound to this node, but it is still the customer's purchase. */
const LICENCE_FILE_MODE = 0o600;

const DEMO_MODE_SUMMARY = 'demo mode: every feature works; the service reports that it is unlicensed (docs/licence.md)';

export interface LicenceStateOptions {
  /** The data folder: holds `node-id` and `licence.token`. */
  dataDir: string;
  /** The vendor public key: PEM text or a path to a PEM file; the built-in key when absent or empty. */
  publicKey?: string | null;
  /** Where a relative `publicKey` path is resolved from (default: the working directory). */
  baseDir?: string;
  clock?: Pick<WallClock, 'nowMs'>;
}

export type LicenceMode = 'licensed' | 'demo';

/** GET /license. */
export interface LicenceStatusReport {
  mode: LicenceMode;
  /** `none` when no token is installed. */
  status: LicenceStatus | 'none';
  /** From the signed payload whenever there is one (also when expired or for another node), else null. */
  licensee: string | null;
  features: string[];
  expiresAt: string | null;
  nodeId: string;
  reason: string;
}

/** GET /config/license: the status plus what an operator needs to sort out a refused licence. */
export interface LicenceDetails extends LicenceStatusReport {
  issuedAt: string | null;
  /** Whether a token file is installed (it may still be invalid). */
  installed: boolean;
  publicKey: { source: VendorPublicKey['source']; fingerprint: string };
}

export class LicenceState {
  readonly nodeId: string;
  readonly #vendorKey: VendorPublicKey;
  readonly #path: string;
  readonly #clock: Pick<WallClock, 'nowMs'>;
  /** The installed token judged apart from the clock (status is read on every HTTP response); null when none is installed. */
  #check: TokenCheck | null;
  /** Why the token file could not be read at start, when it could not. */
  #readProblem: string | null;
  /** Installs and removals one at a time, so the file and memory agree. */
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(nodeId: string, vendorKey: VendorPublicKey, path: string, clock: Pick<WallClock, 'nowMs'>, token: string | null, readProblem: string | null) {
    this.nodeId = nodeId;
    this.#vendorKey = vendorKey;
    this.#path = path;
    this.#clock = clock;
    this.#check = token === null ? null : checkLicenceToken(token, vendorKey.key, nodeId);
    this.#readProblem = readProblem;
  }

  /** Loads (or creates) the node id, the vendor key and the installed token. Throws only for a bad node-id file or vendor key. */
  static async open(options: LicenceStateOptions): Promise<LicenceState> {
    const [nodeId, vendorKey] = await Promise.all([loadNodeId(options.dataDir), loadVendorPublicKey(options.publicKey, options.baseDir)]);
    const path = join(options.dataDir, LICENCE_FILE_NAME);
    // Temporary files of an install killed mid-write (writeFileAtomic's, named after this file).
    await removeOrphanedTemporaries(path);
    let token: string | null = null;
    let readProblem: string | null = null;
    try {
      token = (await readFile(path, 'utf8')).trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') readProblem = `${LICENCE_FILE_NAME} cannot be read: ${(error as Error).message}`;
    }
    return new LicenceState(nodeId, vendorKey, path, options.clock ?? systemClock, token, readProblem);
  }

  get vendorKeyFingerprint(): string {
    return this.#vendorKey.fingerprint;
  }

  /** The verdict on the installed token now, or null when none is installed. */
  verdict(): LicenceVerdict | null {
    if (this.#check === null) return null;
    return licenceVerdictAt(this.#check, this.#now());
  }

  /** What `licenceStatus().mode` says, without building the report: every HTTP response reads it. */
  mode(): LicenceMode {
    const check = this.#check;
    return check !== null && 'payload' in check && !hasExpired(check.payload, this.#now()) ? 'licensed' : 'demo';
  }

  licenceStatus(): LicenceStatusReport {
    return this.#report(this.verdict());
  }

  licenceDetails(): LicenceDetails {
    const verdict = this.verdict();
    return {
      ...this.#report(verdict),
      issuedAt: verdict?.payload?.issuedAt ?? null,
      installed: this.#check !== null,
      publicKey: { source: this.#vendorKey.source, fingerprint: this.#vendorKey.fingerprint },
    };
  }

  /**
   * Installs `token` when it is valid for this node now, replacing any other;
   * else throws ERR_LICENCE_INVALID (details: status, reason) and keeps the
   * installed one.
   */
  install(token: string): Promise<LicenceStatusReport> {
    return this.#serially(async () => {
      const check = checkLicenceToken(token, this.#vendorKey.key, this.nodeId);
      const verdict = licenceVerdictAt(check, this.#now());
      if (verdict.status !== 'valid') {
        throw new LicenceError('ERR_LICENCE_INVALID', `licence refused (${verdict.status}): ${verdict.reason}`, { status: verdict.status, reason: verdict.reason });
      }
      const text = token.trim();
      await writeFileAtomic(this.#path, `${text}\n`, { mode: LICENCE_FILE_MODE });
      this.#check = check;
      this.#readProblem = null;
      return this.#report(verdict);
    });
  }

  /** Removes the installed token; true when there was one. The service goes on in demo mode. */
  remove(): Promise<boolean> {
    return this.#serially(async () => {
      let removed = this.#check !== null;
      try {
        await rm(this.#path);
        removed = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.#check = null;
      this.#readProblem = null;
      return removed;
    });
  }

  #report(verdict: LicenceVerdict | null): LicenceStatusReport {
    const payload = verdict?.payload;
    const licensed = verdict?.status === 'valid';
    const reason = verdict === null ? (this.#readProblem ?? 'no licence installed') : verdict.reason;
    return {
      mode: licensed ? 'licensed' : 'demo',
      status: verdict?.status ?? 'none',
      licensee: payload?.licensee ?? null,
      features: payload?.features ?? [],
      expiresAt: payload?.expiresAt ?? null,
      nodeId: this.nodeId,
      reason: licensed ? reason : `${reason}; ${DEMO_MODE_SUMMARY}`,
    };
  }

  #now(): Date {
    return new Date(this.#clock.nowMs());
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#writes.then(work, work);
    this.#writes = result.catch(() => undefined);
    return result;
  }
}
