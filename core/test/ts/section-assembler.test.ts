import { expect } from 'chai';
import { SectionAssembler, type SectionEvents } from '../../src/ts/section-assembler.js';
import { section } from './packet-builder.js';

interface Seen {
  sections: Array<{ bytes: number[]; startIndex: number }>;
  problems: string[];
}

function assembler(): { a: SectionAssembler; seen: Seen } {
  const seen: Seen = { sections: [], problems: [] };
  const events: SectionEvents = {
    section: (_pid, s, length, _offset, startIndex) => seen.sections.push({ bytes: [...s.subarray(0, length)], startIndex }),
    problem: (_pid, message) => seen.problems.push(message),
  };
  return { a: new SectionAssembler(0x1000, events), seen };
}

const payload = (bytes: number[]): Uint8Array => Uint8Array.from(bytes);

describe('PSI section assembly', () => {
  it('returns a section that fits in one payload', () => {
    const { a, seen } = assembler();
    const s = section(0x02, 1, [1, 2, 3]);
    a.push(payload([0, ...s, 0xff, 0xff]), 0, s.length + 3, true, 0, 7);
    expect(seen.sections).to.deep.equal([{ bytes: s, startIndex: 7 }]);
  });

  it('joins a section spread over three payloads, the header itself split', () => {
    const { a, seen } = assembler();
    const s = section(0x02, 1, Array.from({ length: 300 }, (_, i) => i & 0xff));
    a.push(payload([0, s[0], s[1]]), 0, 3, true, 0, 1);
    a.push(payload(s.slice(2, 200)), 0, 198, false, 188, 2);
    a.push(payload(s.slice(200)), 0, s.length - 200, false, 376, 3);
    expect(seen.sections).to.deep.equal([{ bytes: s, startIndex: 1 }]);
  });

  it('returns two sections sharing one payload', () => {
    const { a, seen } = assembler();
    const s1 = section(0x02, 1, [1]);
    const s2 = section(0x02, 2, [2]);
    const bytes = [0, ...s1, ...s2, 0xff];
    a.push(payload(bytes), 0, bytes.length, true, 0, 0);
    expect(seen.sections.map((x) => x.bytes)).to.deep.equal([s1, s2]);
  });

  it('finishes the previous section through pointer_field before starting the next', () => {
    const { a, seen } = assembler();
    const s1 = section(0x02, 1, Array.from({ length: 10 }, () => 9));
    const s2 = section(0x02, 2, [2]);
    a.push(payload([0, ...s1.slice(0, 8)]), 0, 9, true, 0, 0);
    const rest = s1.slice(8);
    const second = [rest.length, ...rest, ...s2];
    a.push(payload(second), 0, second.length, true, 188, 1);
    expect(seen.sections.map((x) => x.bytes)).to.deep.equal([s1, s2]);
  });

  it('ignores the tail of a section whose start it never saw', () => {
    const { a, seen } = assembler();
    a.push(payload([1, 2, 3, 4]), 0, 4, false, 0, 0);
    expect(seen.sections).to.have.length(0);
    expect(seen.problems).to.have.length(0);
  });

  it('reports a pointer_field that points past the payload', () => {
    const { a, seen } = assembler();
    a.push(payload([200, 1, 2]), 0, 3, true, 0, 0);
    expect(seen.problems).to.deep.equal(['pointer_field 200 points past the packet payload']);
  });

  it('reports a section cut short by the next unit start', () => {
    const { a, seen } = assembler();
    const s = section(0x02, 1, Array.from({ length: 50 }, () => 1));
    a.push(payload([0, ...s.slice(0, 20)]), 0, 21, true, 0, 0);
    a.push(payload([0, 0xff]), 0, 2, true, 188, 1);
    expect(seen.problems).to.deep.equal(['section ended before its section_length']);
  });

  it('reports a section_length over 4093', () => {
    const { a, seen } = assembler();
    a.push(payload([0, 0x80, 0xff, 0xff]), 0, 4, true, 0, 0);
    expect(seen.problems).to.deep.equal(['section_length 4095 exceeds 4093']);
  });

  it('drops a partial section after reset', () => {
    const { a, seen } = assembler();
    const s = section(0x02, 1, Array.from({ length: 250 }, () => 1));
    a.push(payload([0, ...s.slice(0, 100)]), 0, 101, true, 0, 0);
    a.reset();
    a.push(payload(s.slice(100)), 0, s.length - 100, false, 188, 1);
    expect(seen.sections).to.have.length(0);
  });
});
