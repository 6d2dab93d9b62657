import { expect } from 'chai';
import { formatFaultSpec, parseFaultSpec } from '../../src/gen/fault-spec.js';
import { GeneratorError } from '../../src/gen/generator-error.js';

function parseError(text: string, kinds?: string[]): GeneratorError {
  try {
    parseFaultSpec(text, kinds);
  } catch (error) {
    if (error instanceof GeneratorError) return error;
    throw error;
  }
  throw new Error(`'${text}' was accepted`);
}

describe('fault spec parser', () => {
  it("reads 'pcr-gap@3.5' as a PCR gap at 3.5 s", () => {
    expect(parseFaultSpec('pcr-gap@3.5')).to.deep.equal({ kind: 'pcr-gap', atSeconds: 3.5 });
  });

  it('reads a PID in hex or decimal, a duration and an amount after commas', () => {
    expect(parseFaultSpec('drop-packet@2,pid=0x101')).to.deep.equal({ kind: 'drop-packet', atSeconds: 2, pid: 0x101 });
    expect(parseFaultSpec('tei@0,pid=256')).to.deep.equal({ kind: 'tei', atSeconds: 0, pid: 256 });
    expect(parseFaultSpec(' pat-gap@1s,durationMs=2500 ')).to.deep.equal({ kind: 'pat-gap', atSeconds: 1, durationMs: 2500 });
    expect(parseFaultSpec('pcr-jump-forward@4,amountMs=500')).to.deep.equal({ kind: 'pcr-jump-forward', atSeconds: 4, amountMs: 500 });
  });

  it('accepts kinds it is told about', () => {
    expect(parseFaultSpec('klv-checksum@1', ['klv-checksum'])).to.deep.equal({ kind: 'klv-checksum', atSeconds: 1 });
  });

  it('round-trips through formatFaultSpec', () => {
    const spec = { kind: 'pmt-gap', atSeconds: 1.25, pid: 0x1000, durationMs: 700 };
    expect(parseFaultSpec(formatFaultSpec(spec))).to.deep.equal(spec);
  });

  it("rejects a spec without '@' and says what is expected", () => {
    const error = parseError('pcr-gap');
    expect(error.code).to.equal('ERR_FAULT_SPEC');
    expect(error.message).to.equal(
      "invalid fault 'pcr-gap': missing '@'; expected KIND@SECONDS[,pid=P][,durationMs=D][,amountMs=A], e.g. pcr-gap@3.5",
    );
  });

  it('rejects an unknown kind and lists the known ones', () => {
    expect(parseError('pcr-gapp@1').message).to.contain("unknown fault kind 'pcr-gapp' (known: drop-packet, duplicate-packet, tei, sync-byte, pcr-gap,");
  });

  it('rejects a missing kind, a time that is not a non-negative number, and bad options', () => {
    expect(parseError('@3').message).to.contain('missing fault kind');
    expect(parseError('pcr-gap@abc').message).to.contain("'abc' is not a time in seconds");
    expect(parseError('pcr-gap@-1').message).to.contain("'-1' is not a time in seconds");
    expect(parseError('pcr-gap@').message).to.contain("'' is not a time in seconds");
    expect(parseError('tei@1,pid=0x2000').message).to.contain("pid '0x2000' is not a PID");
    expect(parseError('pat-gap@1,durationMs=0').message).to.contain("durationMs '0' is not a positive number");
    expect(parseError('pat-gap@1,colour=red').message).to.contain("unknown option 'colour=red' (options: pid, durationMs, amountMs)");
  });
});
