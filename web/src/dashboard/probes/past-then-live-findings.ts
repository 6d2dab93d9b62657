/**
 * A probe session's findings without a gap or a repeat, from two sources
 * that overlap: the stored ones (GET /sessions/{id}/findings, read once when
 * the view opens) and the live channel's (from the moment it subscribed).
 * Live findings wait until the stored ones are in; then only those above the
 * highest stored id pass (ids are the catalog's, growing across the fleet).
 */
import type { ProbeFinding } from './probe-wire.js';

export class PastThenLiveFindings {
  /** Live findings held while the stored ones are read; null once they are in. */
  private held: ProbeFinding[] | null = [];
  private highestStoredId = 0;

  /** A finding from the channel: the findings to show now, in order. */
  live(finding: ProbeFinding): ProbeFinding[] {
    if (this.held !== null) {
      this.held.push(finding);
      return [];
    }
    return finding.id > this.highestStoredId ? [finding] : [];
  }

  /** The stored findings, oldest first (an empty list when they could not be read): the findings to show now, in order. */
  past(stored: readonly ProbeFinding[]): ProbeFinding[] {
    for (const finding of stored) this.highestStoredId = Math.max(this.highestStoredId, finding.id);
    const held = this.held ?? [];
    this.held = null;
    return [...stored, ...held.filter((finding) => finding.id > this.highestStoredId)];
  }
}
