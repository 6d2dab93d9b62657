/**
 * The grammar shared by every `udp://` URL of klvscope, sources and replay
 * destinations alike: `udp://[SOURCE@]HOST:PORT[/][?NAME=VALUE&...]` with IPv4
 * literals only (dotted decimal without leading zeros, which some parsers read as octal: Node's isIPv4). Names are refused rather than resolved: a live source or a
 * replay should never depend on DNS, and a bind address must be local anyway.
 * What the parts mean is up to udp-source-url.ts and udp-destination-url.ts.
 */
import { isIPv4 } from 'node:net';
import { AdapterError, type AdapterErrorCode } from './adapter-error.js';

export interface UdpUrlParts {
  /** The part before `@`, or null. */
  source: string | null;
  /** The host as written: an IPv4 literal, or '' for `udp://:PORT`. */
  host: string;
  port: number;
  /** Query parameters, each name at most once. */
  params: ReadonlyMap<string, string>;
}

/** A URL error of one kind (source or destination), naming the URL and, when given, the offending part. */
export type UdpUrlFailure = (problem: string) => never;

export function udpUrlFailure(code: AdapterErrorCode, url: string, usage: string): UdpUrlFailure {
  return (problem) => {
    throw new AdapterError(code, `${url}: ${problem} (${usage})`, { url });
  };
}

const URL_SHAPE = /^udp:\/\/(?:([^@/?#]*)@)?([^/?#]*?)(?::([^:/?#]*))?(\/[^?#]*)?(?:\?([^#]*))?(#.*)?$/i;

/** Splits a `udp://` URL into its parts; `allowed` names the query parameters this kind of URL accepts. */
export function parseUdpUrl(url: string, allowed: readonly string[], fail: UdpUrlFailure): UdpUrlParts {
  if (!/^udp:\/\//i.test(url)) fail(`not a udp:// URL`);
  const match = URL_SHAPE.exec(url);
  if (!match) fail('malformed URL');
  const [, written, host, port, path, query, fragment] = match;
  // `udp://@GROUP:PORT` (VLC and ffmpeg's "listen" mark) names no source.
  const source = written === '' ? undefined : written;
  if (host.startsWith('[') || (host.includes(':') && port === undefined)) fail('IPv6 is not supported; give an IPv4 address');
  if ((path !== undefined && path !== '/') || fragment !== undefined) fail('a udp:// URL has no path or fragment');
  if (port === undefined || port === '') fail('the port is missing');
  if (host !== '' && !isIPv4(host)) fail(`'${host}' is not an IPv4 address (host names are not resolved)`);
  if (source !== undefined && !isIPv4(source)) fail(`the source '${source}' is not an IPv4 address`);
  return { source: source ?? null, host, port: parsePort(port, fail), params: parseQuery(query ?? '', allowed, fail) };
}

function parsePort(text: string, fail: UdpUrlFailure): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port <= 0xffff)) fail(`the port '${text}' is not a number from 0 to 65535`);
  return port;
}

function parseQuery(query: string, allowed: readonly string[], fail: UdpUrlFailure): Map<string, string> {
  const params = new Map<string, string>();
  if (query === '') return params;
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals < 0 ? pair : pair.slice(0, equals), fail);
    const value = equals < 0 ? '' : decodeComponent(pair.slice(equals + 1), fail);
    if (!allowed.includes(name)) fail(`unknown option '${name}'; the options are ${allowed.join(', ')}`);
    if (params.has(name)) fail(`option '${name}' is given twice`);
    params.set(name, value);
  }
  return params;
}

function decodeComponent(text: string, fail: UdpUrlFailure): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(`'${text}' is not validly percent-encoded`);
  }
}

/** An integer option within [min, max], or `fallback` when absent. */
export function integerParam(params: ReadonlyMap<string, string>, name: string, min: number, max: number, fallback: number, fail: UdpUrlFailure): number {
  const text = params.get(name);
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) fail(`${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return value;
}

/** An IPv4 address option, or null when absent. */
export function ipv4Param(params: ReadonlyMap<string, string>, name: string, fail: UdpUrlFailure): string | null {
  const text = params.get(name);
  if (text === undefined) return null;
  if (!isIPv4(text)) fail(`${name} must be an IPv4 address, got '${text}'`);
  return text;
}

/** RFC 5771: 224.0.0.0/4 is the IPv4 multicast range. */
export function isMulticastIpv4(address: string): boolean {
  const first = Number(address.slice(0, address.indexOf('.')));
  return first >= 224 && first <= 239;
}
