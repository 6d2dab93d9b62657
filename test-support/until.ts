/** Waiting in a test for something another process or a page does: polls every 50 ms, fails with what it waited for. */
export async function until(what: string, timeoutMs: number, predicate: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
