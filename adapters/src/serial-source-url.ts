/**
 * The URL of a serial capture source:
 *
 *   serial:///dev/ttyUSB0?baud=115200&format=klv&dataBits=8&parity=none&stopBits=1
 *   serial:/dev/ttyUSB0          (the same, short form)
 *   serial:COM3, serial://COM3   (Windows)
 *
 * Parameters (all optional): `baud` (default 115200), `format` `klv` or `ts`
 * (default klv), `dataBits` 5-8 (default 8), `parity` none, even or odd
 * (default none), `stopBits` 1, 1.5 or 2 (default 1), `maxKlvLength` the
 * largest KLV value in bytes (default 65536), `keys` `any` SMPTE universal
 * label or only `known` registry keys (default any). Unknown or repeated
 * parameters are refused, so a typo never passes for a default.
 */
import { MAX_KLV_VALUE_BYTES } from '@klvscope/core';
import { AdapterError } from './adapter-error.js';
import { DEFAULT_MAX_KLV_VALUE_BYTES } from './klv-framer.js';
import { integerParam } from './udp-url.js';

const DEFAULT_SERIAL_BAUD_RATE = 115200;

export interface SerialSourceUrl {
  /** The device: `/dev/ttyUSB0`, `/dev/serial/by-id/...`, `COM3`. */
  path: string;
  baudRate: number;
  /** What the device sends: raw KLV triplets or 188-byte TS packets. */
  format: 'klv' | 'ts';
  dataBits: 5 | 6 | 7 | 8;
  parity: 'none' | 'even' | 'odd';
  stopBits: 1 | 1.5 | 2;
  /** Largest KLV value accepted (bytes); a longer length marks a false key start. */
  maxKlvLength: number;
  /** Which 16-byte keys start a KLV packet: any SMPTE universal label, or only those of the registry. */
  keys: 'any' | 'known';
}

const PARAMETERS = ['baud', 'format', 'dataBits', 'parity', 'stopBits', 'maxKlvLength', 'keys'] as const;
type Parameter = (typeof PARAMETERS)[number];

/** Whether the URL is for the serial adapter (`serial:` scheme, any case). */
export function isSerialSourceUrl(url: string): boolean {
  return /^serial:/i.test(url);
}

/** Parses a `serial:` source URL; AdapterError ERR_SOURCE_URL_INVALID names what is wrong. */
export function parseSerialSourceUrl(url: string): SerialSourceUrl {
  const invalid = (problem: string, parameter?: string): AdapterError =>
    new AdapterError('ERR_SOURCE_URL_INVALID', `invalid serial source '${url}': ${problem}`, parameter === undefined ? { url } : { url, parameter });
  if (!isSerialSourceUrl(url)) throw invalid("the scheme must be 'serial:'");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('not a URL');
  }
  if (parsed.hash !== '') throw invalid(`unexpected fragment '${parsed.hash}'`);
  const path = devicePath(parsed, invalid);

  const given = new Map<Parameter, string>();
  for (const [name, value] of parsed.searchParams) {
    if (!(PARAMETERS as readonly string[]).includes(name)) throw invalid(`unknown parameter '${name}' (known: ${PARAMETERS.join(', ')})`, name);
    if (given.has(name as Parameter)) throw invalid(`parameter '${name}' given twice`, name);
    given.set(name as Parameter, value);
  }
  const choice = <T extends string | number>(name: Parameter, allowed: readonly T[], fallback: T): T => {
    const text = given.get(name);
    if (text === undefined) return fallback;
    const found = allowed.find((a) => String(a) === text);
    if (found === undefined) throw invalid(`${name} must be one of ${allowed.join(', ')}, got '${text}'`, name);
    return found;
  };
  const integer = (name: Parameter, min: number, max: number, fallback: number): number =>
    integerParam(given, name, min, max, fallback, (problem) => {
      throw invalid(problem, name);
    });

  return {
    path,
    // No upper bound a serial port could honour is universal: the OS refuses what its driver cannot do.
    baudRate: integer('baud', 1, 100_000_000, DEFAULT_SERIAL_BAUD_RATE),
    format: choice('format', ['klv', 'ts'] as const, 'klv'),
    dataBits: choice('dataBits', [5, 6, 7, 8] as const, 8),
    parity: choice('parity', ['none', 'even', 'odd'] as const, 'none'),
    stopBits: choice('stopBits', [1, 1.5, 2] as const, 1),
    maxKlvLength: integer('maxKlvLength', 1, MAX_KLV_VALUE_BYTES, DEFAULT_MAX_KLV_VALUE_BYTES),
    keys: choice('keys', ['any', 'known'] as const, 'any'),
  };
}

/** The device path: absolute on POSIX, `COMn` on Windows. */
function devicePath(parsed: URL, invalid: (problem: string) => AdapterError): string {
  if (parsed.host !== '') {
    if (/^COM\d+$/i.test(parsed.host) && parsed.pathname === '') return parsed.host.toUpperCase();
    // serial://dev/ttyUSB0 reads 'dev' as a host: the usual slip is one slash too few.
    throw invalid(`a serial device is local, but the URL names host '${parsed.host}' (write serial:///${parsed.host}${parsed.pathname})`);
  }
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    throw invalid(`the device path '${parsed.pathname}' is not valid percent-encoding`);
  }
  if (/^COM\d+$/i.test(path)) return path.toUpperCase();
  if (!path.startsWith('/') || path.endsWith('/')) throw invalid(`no device path (write e.g. serial:///dev/ttyUSB0)`);
  return path;
}
