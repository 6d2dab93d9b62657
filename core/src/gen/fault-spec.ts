/**
 * A request to inject one fault, and its command-line form
 * `KIND@SECONDS[,key=value...]`, e.g. `pcr-gap@3.5` or
 * `drop-packet@2,pid=0x101` or `pcr-jump-forward@4,amountMs=500`.
 */
import { BUILT_IN_FAULT_KIND_NAMES } from './built-in-fault-kinds.js';
import { GeneratorError } from './generator-error.js';

export interface FaultSpec {
  kind: string;
  /** Stream time (seconds from the first packet) at or after which the fault is injected. */
  atSeconds: number;
  /** The PID to act on, where the kind allows a choice (defaults per kind). */
  pid?: number;
  /** Length of a gap fault in milliseconds (defaults per kind). */
  durationMs?: number;
  /** Size of a jump in milliseconds (defaults per kind). */
  amountMs?: number;
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const PID = /^(?:0x[0-9a-f]{1,4}|\d{1,4})$/i;
const KEYS = ['pid', 'durationMs', 'amountMs'] as const;

/**
 * Parses `KIND@SECONDS[,key=value...]` (keys: pid, durationMs, amountMs).
 * `knownKinds` are the accepted kind names (the built-in ones by default;
 * add those of custom kinds and sources). Throws a GeneratorError
 * (ERR_FAULT_SPEC) that says what is wrong and what is expected.
 */
export function parseFaultSpec(text: string, knownKinds: readonly string[] = BUILT_IN_FAULT_KIND_NAMES): FaultSpec {
  const usage = 'expected KIND@SECONDS[,pid=P][,durationMs=D][,amountMs=A], e.g. pcr-gap@3.5';
  const fail = (why: string): never => {
    throw new GeneratorError('ERR_FAULT_SPEC', `invalid fault '${text}': ${why}; ${usage}`);
  };
  const [head, ...options] = text.trim().split(',');
  const at = head.indexOf('@');
  if (at < 0) fail("missing '@'");
  const kind = head.slice(0, at).trim();
  const secondsText = head.slice(at + 1).trim().replace(/s$/, '');
  if (kind === '') fail('missing fault kind');
  if (!knownKinds.includes(kind)) fail(`unknown fault kind '${kind}' (known: ${knownKinds.join(', ')})`);
  if (!NUMBER.test(secondsText)) fail(`'${head.slice(at + 1)}' is not a time in seconds (a non-negative number)`);
  const spec: FaultSpec = { kind, atSeconds: Number(secondsText) };
  for (const option of options) {
    const eq = option.indexOf('=');
    const key = option.slice(0, eq).trim();
    const value = option.slice(eq + 1).trim();
    if (eq < 0 || !(KEYS as readonly string[]).includes(key)) fail(`unknown option '${option}' (options: ${KEYS.join(', ')})`);
    if (key === 'pid') {
      const pid = PID.test(value) ? Number(value) : NaN;
      if (!(pid >= 0 && pid <= 0x1fff)) fail(`pid '${value}' is not a PID (0..8191 or 0x0..0x1FFF)`);
      spec.pid = pid;
    } else {
      if (!NUMBER.test(value) || Number(value) <= 0) fail(`${key} '${value}' is not a positive number of milliseconds`);
      spec[key as 'durationMs' | 'amountMs'] = Number(value);
    }
  }
  return spec;
}

/** The command-line form of a spec (inverse of parseFaultSpec). */
export function formatFaultSpec(spec: FaultSpec): string {
  let text = `${spec.kind}@${spec.atSeconds}`;
  if (spec.pid !== undefined) text += `,pid=0x${spec.pid.toString(16)}`;
  if (spec.durationMs !== undefined) text += `,durationMs=${spec.durationMs}`;
  if (spec.amountMs !== undefined) text += `,amountMs=${spec.amountMs}`;
  return text;
}
