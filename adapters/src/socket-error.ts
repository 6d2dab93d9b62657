/**
 * A socket operation the system refused, as AdapterError ERR_SOCKET: what was
 * attempted, on which URL, the errno, and a hint for the usual causes.
 */
import { AdapterError } from './adapter-error.js';

const HINTS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'another socket holds the port without sharing it',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  EACCES: 'not permitted (ports below 1024 need privileges; a broadcast address needs SO_BROADCAST)',
  ENODEV: 'no interface for the group: give interface=ADDR, or route 224.0.0.0/4 to an interface',
  EINVAL: 'the system refused the arguments (is interface= an address of this machine?)',
  ENETUNREACH: 'no route to the destination',
};

export function socketError(cause: unknown, action: string, url: string): AdapterError {
  const errno = (cause as NodeJS.ErrnoException | null)?.code ?? null;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const hint = errno !== null && Object.hasOwn(HINTS, errno) ? `: ${HINTS[errno]}` : '';
  return new AdapterError('ERR_SOCKET', `${url}: cannot ${action} (${reason})${hint}`, { url, errno }, { cause });
}
