/**
 * Playback tokens: a file session's recording can be played (`GET
 * /playback/{token}`, public, so a video player needs no API key) through an
 * unguessable token (256 random bits) that expires. Tokens live in memory
 * only: a restart revokes them all.
 */
import { randomBytes } from 'node:crypto';

export interface PlaybackGrant {
  token: string;
  /** The file the token plays (already confined to the browse roots). */
  path: string;
  /** Its content hash (the file session's): names its cached transcode. */
  fileHash: string;
  expiresAtMs: number;
}

/** Grants kept at most: the oldest go first (a token is cheap to issue again). */
const MAX_GRANTS = 1_000;

export class PlaybackTokens {
  private readonly grants = new Map<string, PlaybackGrant>();

  constructor(
    private readonly ttlMs: () => number,
    private readonly clock: () => number = Date.now,
  ) {}

  issue(path: string, fileHash: string): PlaybackGrant {
    const grant: PlaybackGrant = { token: randomBytes(32).toString('base64url'), path, fileHash, expiresAtMs: this.clock() + this.ttlMs() };
    this.grants.set(grant.token, grant);
    for (const token of this.grants.keys()) {
      if (this.grants.size <= MAX_GRANTS) break;
      this.grants.delete(token);
    }
    return grant;
  }

  /** The grant of a live token; null for an unknown or expired one. */
  find(token: string): PlaybackGrant | null {
    const grant = this.grants.get(token);
    if (!grant) return null;
    if (grant.expiresAtMs <= this.clock()) {
      this.grants.delete(token);
      return null;
    }
    return grant;
  }

  /** Revokes every token of a file (its session stopped). */
  revokeFile(path: string): void {
    for (const [token, grant] of this.grants) if (grant.path === path) this.grants.delete(token);
  }
}
