import { expect } from 'chai';
import { bytesToHex, hexToBytes } from '../../src/klv/hex.js';
import { OUT_OF_RANGE } from '../../src/klv/mapped-integer.js';
import { decodeSt0601Item, encodeSt0601Item } from '../../src/klv/st0601-item.js';
import { ST0601_ITEMS, st0601Item } from '../../src/klv/st0601-items.js';
import { closeTo, samplesFor } from './st0601-samples.js';

describe('ST 0601 item table', () => {
  it('defines every item from 1 to 143 exactly once, in order', () => {
    expect(ST0601_ITEMS.map((s) => s.tag)).to.deep.equal(Array.from({ length: 143 }, (_, i) => i + 1));
    expect(new Set(ST0601_ITEMS.map((s) => s.name)).size).to.equal(143);
  });

  it('marks items 1, 2 and 65 mandatory, 100, 101, 102 and 115 repeatable and 66 deprecated', () => {
    expect(ST0601_ITEMS.filter((s) => s.mandatory).map((s) => s.tag)).to.deep.equal([1, 2, 65]);
    expect(ST0601_ITEMS.filter((s) => s.mayRepeat).map((s) => s.tag)).to.deep.equal([100, 101, 102, 115]);
    expect(ST0601_ITEMS.filter((s) => s.deprecated).map((s) => s.tag)).to.deep.equal([66]);
  });

  it('describes the classic mapped items as the standard does', () => {
    expect(st0601Item(5)).to.deep.include({ name: 'Platform Heading Angle', units: '°', valueType: 'uint16', length: { kind: 'fixed', bytes: 2 }, range: { min: 0, max: 360 }, resolution: 360 / 65535 });
    expect(st0601Item(6)).to.deep.include({ valueType: 'int16', range: { min: -20, max: 20 }, resolution: 40 / 65534 });
    expect(st0601Item(13)).to.deep.include({ valueType: 'int32', range: { min: -90, max: 90 }, resolution: 180 / 4294967294 });
    expect(st0601Item(96)).to.deep.include({ valueType: 'IMAPB', length: { kind: 'range', min: 1, max: 8 }, range: { min: 0, max: 1_500_000 } });
    expect(st0601Item(3)).to.deep.include({ valueType: 'utf8', length: { kind: 'range', min: 0, max: 127 } });
    expect(st0601Item(144)).to.equal(undefined);
  });

  it("decodes the signed maps' reserved minimum as the out-of-range indicator", () => {
    expect(decodeSt0601Item(6, hexToBytes('8000')!, 0, 2).value).to.deep.equal({ special: 'out-of-range' });
    expect(decodeSt0601Item(13, hexToBytes('80000000')!, 0, 4).value).to.deep.equal({ special: 'out-of-range' });
    expect(decodeSt0601Item(13, hexToBytes('80000001')!, 0, 4).value).to.equal(-90);
    expect(bytesToHex(encodeSt0601Item(6, OUT_OF_RANGE))).to.equal('8000');
  });

  // Value and bytes pairs of the MISB ST 0601.11 section 8 examples, as klvdata's test_misb_0601.py pins them.
  const ST0601_EXAMPLES: [number, unknown, string][] = [
    [2, 1224807209913000, '000459f4a6aa4aa8'],
    [3, 'MISSION01', '4d495353494f4e3031'],
    [4, 'AF-101', '41462d313031'],
    [5, 159.9744, '71c2'],
    [6, -0.4315251, 'fd3d'],
    [7, 3.405814, '08b8'],
    [8, 147, '93'],
    [9, 159, '9f'],
    [10, 'MQ1-B', '4d51312d42'],
    [13, 60.1768229669783, '5595b66d'],
    [14, 128.426759042045, '5b5360c4'],
    [15, 14190.72, 'c221'],
    [16, 144.5713, 'cd9c'],
    [17, 152.6436, 'd917'],
    [18, 160.719211474396, '724a0a20'],
    [19, -168.792324833941, '87f84b86'],
    [20, 176.865437690572, '7dc55ece'],
    [22, 722.8199, '1281'],
    [23, -10.5423886331461, 'f101a229'],
    [24, 29.157890122923, '14bc082b'],
    [25, 3216.037, '34f3'],
    [26, -10.579637999887 - -10.5423886331461, 'c06e'],
    [27, 29.1273677986333 - 29.157890122923, 'cbe9'],
    [28, -10.5661816260963 - -10.5423886331461, 'd765'],
    [29, 29.140824172424 - 29.157890122923, 'e2e0'],
    [30, -10.5527275411938 - -10.5423886331461, 'ee5b'],
    [31, 29.1542782573265 - 29.157890122923, 'f9d6'],
    [32, -10.5392711674031 - -10.5423886331461, '0552'],
    [33, 29.1677346311172 - 29.157890122923, '10cd'],
    [35, 235.924, 'a7c4'],
    [36, 69.80392, 'b2'],
    [37, 3725.185, 'beba'],
    [38, 14818.68, 'ca35'],
    [39, 84, '54'],
    [40, -79.1638500518929, '8f695262'],
    [41, 166.400812960416, '765457f2'],
    [42, 18389.05, 'f823'],
    [43, 6, '03'],
    [44, 30, '0f'],
    // Items 45 and 46 are left out: their example values (425.319, 609.0718) were computed with
    // 4096 instead of the 4095 the formula states, so they miss by two steps.
    [49, 1191.958, '3d07'],
    [50, -8.670177, 'c883'],
    [51, -61.88693, 'd3fe'],
    [52, -5.082475, 'df79'],
    [53, 2088.96, '6af4'],
    [54, 8306.806, '7670'],
    [55, 50.58823, '81'],
    [56, 140, '8c'],
    [57, 3506979.0316, 'b38eacf1'],
    // Item 21 is left out: its example value 68590.98 is three steps away from its bytes 03830926.
    [58, 6420.539, 'a45d'],
    [59, 'TOP GUN', '544f502047554e'],
    [62, 50895, 'c6cf'],
    [64, 311.8682, 'ddc5'],
    [65, 232, 'e8'],
    [67, -86.041207348947, '85a15a39'],
    [68, 0.155527554524842, '001c501c'],
    [69, 9.445334, '0bb3'],
    [70, 'APACHE', '415041434845'],
    [71, 32.60242, '172f'],
    // The example calls it "April 16, 1995. 13:44:54"; the bytes are 1995-04-16T12:44:54.670901Z.
    [72, 798036294670901, '0002d5cf4ddc9a35'],
    [75, 14190.72, 'c221'],
    [76, 9.445334, '0bb3'],
    [78, 9.445334, '0bb3'],
    [82, -10.579637999887, 'f0f41244'],
    [83, 29.1273677986333, '14b679b9'],
    [84, -10.5661816260963, 'f0f8f87e'],
    [85, 29.140824172424, '14b8ecd6'],
    [86, -10.5527275411938, 'f0fdde81'],
    [87, 29.1542782573265, '14bb5fd8'],
    [88, -10.5392711674031, 'f102c4bb'],
    [89, 29.1677346311172, '14bdd2f5'],
    [91, 3.405814, '04d804df'],
    [92, -8.670177, 'f3ab48ef'],
    [96, 13898.5463, '00d92a'],
    [103, 23456.24, '2f921e'],
    [104, 23456.24, '2f921e'],
    [105, 23456.24, '2f921e'],
  ];

  for (const [tag, value, hex] of ST0601_EXAMPLES) {
    it(`encodes the ST 0601 example of item ${tag} (${String(value)}) as ${hex}`, () => {
      expect(bytesToHex(encodeSt0601Item(tag, value))).to.equal(hex);
    });
  }

  it('decodes every ST 0601 example back to its value within the resolution', () => {
    const failures = ST0601_EXAMPLES.flatMap(([tag, value, hex]) => {
      const bytes = hexToBytes(hex)!;
      const tolerance = st0601Item(tag)!.resolution ?? 0;
      return closeTo(decodeSt0601Item(tag, bytes, 0, bytes.length).value, value, tolerance, `item ${tag}`);
    });
    expect(failures).to.deep.equal([]);
  });
});

describe('ST 0601 item round trip', () => {
  for (const spec of ST0601_ITEMS) {
    it(`gives item ${spec.tag} (${spec.name}) back after encoding at its minimum, maximum, zero and special values`, () => {
      const failures: string[] = [];
      for (const sample of samplesFor(spec)) {
        const bytes = encodeSt0601Item(spec.tag, sample.input);
        const decoded = decodeSt0601Item(spec.tag, bytes, 0, bytes.length);
        const label = `${JSON.stringify(sample.input)} -> ${bytesToHex(bytes)}`;
        if (decoded.error !== undefined) {
          failures.push(`${label}: ${decoded.error}`);
          continue;
        }
        if (sample.check) sample.check(decoded.value);
        else failures.push(...closeTo(decoded.value, sample.expected ?? sample.input, sample.tolerance ?? spec.resolution ?? 0).map((f) => `${label}: ${f}`));
        // Encoding the decoded value gives the same bytes again.
        const again = bytesToHex(encodeSt0601Item(spec.tag, decoded.value));
        if (again !== bytesToHex(bytes)) failures.push(`${label}: re-encoded as ${again}`);
      }
      expect(failures).to.deep.equal([]);
    });
  }
});
