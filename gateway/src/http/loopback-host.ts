/**
 * The service binds to the loopback interface only (spec "Rules" 1): the
 * host it listens on, and the Host header it answers (a page of another site
 * whose name was re-pointed at 127.0.0.1 — DNS rebinding — sends its own
 * name there, and is refused).
 */
import { BlockList, isIP } from 'node:net';
import { InspectionError } from '../inspection/inspection-error.js';

export const DEFAULT_HOST = '127.0.0.1';
export const IPV6_LOOPBACK = '::1';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress(IPV6_LOOPBACK, 'ipv6');

/** 127.0.0.0/8, ::1 (in any spelling, brackets allowed) or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  const family = isIP(name);
  if (family === 4) return LOOPBACK.check(name, 'ipv4');
  if (family === 6) return LOOPBACK.check(name, 'ipv6');
  return false;
}

/** Refuses, at start, a host that is not loopback, naming it and what is allowed. */
export function assertLoopbackHost(host: string): void {
  if (!isLoopbackHost(host)) {
    throw new InspectionError(
      'ERR_HOST_NOT_LOOPBACK',
      `refusing to listen on '${host}': the inspection service binds to the loopback interface only (127.0.0.0/8, ::1 or localhost)`,
      { host },
    );
  }
}

/** A Host header the service answers: one naming loopback, or none (HTTP/1.0 may send none, and then nothing names another site). */
export function isAllowedHostHeader(header: string | undefined): boolean {
  return header === undefined || header === '' || isLoopbackHost(hostOfHostHeader(header));
}

/** The host part of a Host header (`127.0.0.1:38180`, `[::1]:38180`, `localhost`). */
function hostOfHostHeader(header: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(header);
  if (bracketed) return bracketed[1];
  const colon = header.lastIndexOf(':');
  // More than one colon and no brackets: a bare IPv6 address, which has no port.
  return colon !== -1 && header.indexOf(':') === colon ? header.slice(0, colon) : header;
}
