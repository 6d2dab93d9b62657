/**
 * Callers waiting for the next time something happens (an event appended, a
 * session started), each until then or until its own signal aborts.
 */
export class Waiters {
  private list: Array<() => void> = [];

  /** Resolves at the next `wakeAll`, or at once when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        // Gone from the list when woken by wakeAll; an abort takes it out here.
        this.list = this.list.filter((waiter) => waiter !== done);
        resolve();
      };
      this.list.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  wakeAll(): void {
    // The log wakes for every event, mostly with nobody waiting: no new list then.
    if (this.list.length === 0) return;
    // Taken whole: each waiter then filters an empty list rather than the rest of the waiters.
    const list = this.list;
    this.list = [];
    for (const waiter of list) waiter();
  }
}
