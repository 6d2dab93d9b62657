/**
 * A Node system error as a short phrase for people, with its errno name:
 * "no space left on device (ENOSPC)". Node's own messages repeat the code
 * and name the syscall ("ENOSPC: no space left on device, write", "spawn
 * /x ENOENT"), which reads badly inside a sentence that already says what
 * was attempted; libuv's table has the plain description.
 */
import { getSystemErrorMap } from 'node:util';

export function systemErrorReason(cause: unknown): string {
  const { code, errno } = (cause ?? {}) as NodeJS.ErrnoException;
  const known = typeof errno === 'number' ? getSystemErrorMap().get(errno) : undefined;
  if (known) return `${known[1]} (${known[0]})`;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' ? `${message} (${code})` : message;
}
