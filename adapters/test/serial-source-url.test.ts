import { expect } from 'chai';
import { thrownBy } from '../../test-support/thrown.js';
import { AdapterError } from '../src/adapter-error.js';
import { isSerialSourceUrl, parseSerialSourceUrl } from '../src/serial-source-url.js';

function refusal(url: string): AdapterError {
  const error = thrownBy(() => parseSerialSourceUrl(url));
  if (error instanceof AdapterError) return error;
  throw error;
}

describe('serial source URL', () => {
  it('gives the defaults for a bare device: 115200 baud, KLV, 8N1, 64 KiB values, any key', () => {
    expect(parseSerialSourceUrl('serial:///dev/ttyUSB0')).to.deep.equal({
      path: '/dev/ttyUSB0',
      baudRate: 115200,
      format: 'klv',
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
      maxKlvLength: 65536,
      keys: 'any',
    });
  });

  it('reads every parameter', () => {
    const url = 'serial:///dev/ttyS1?baud=9600&format=ts&dataBits=7&parity=even&stopBits=2&maxKlvLength=2048&keys=known';
    expect(parseSerialSourceUrl(url)).to.deep.equal({
      path: '/dev/ttyS1',
      baudRate: 9600,
      format: 'ts',
      dataBits: 7,
      parity: 'even',
      stopBits: 2,
      maxKlvLength: 2048,
      keys: 'known',
    });
    expect(parseSerialSourceUrl('serial:/dev/ttyS1?stopBits=1.5').stopBits).to.equal(1.5);
  });

  it('accepts the short form, percent-encoded paths and Windows COM ports', () => {
    expect(parseSerialSourceUrl('serial:/dev/ttyACM0?baud=57600')).to.include({ path: '/dev/ttyACM0', baudRate: 57600 });
    expect(parseSerialSourceUrl('serial:///dev/serial/by-id/usb-FTDI%20Cable-if00').path).to.equal('/dev/serial/by-id/usb-FTDI Cable-if00');
    expect(parseSerialSourceUrl('serial:COM3').path).to.equal('COM3');
    expect(parseSerialSourceUrl('serial://com12?baud=230400')).to.include({ path: 'COM12', baudRate: 230400 });
    expect(parseSerialSourceUrl('SERIAL:///dev/ttyUSB0').path).to.equal('/dev/ttyUSB0');
  });

  it('tells serial URLs from others by their scheme', () => {
    expect(['serial:///dev/ttyUSB0', 'Serial:COM1', 'udp://239.1.1.1:5000', '/dev/ttyUSB0'].map(isSerialSourceUrl)).to.deep.equal([true, true, false, false]);
  });

  it('refuses a bad parameter value with ERR_SOURCE_URL_INVALID naming the parameter and the value', () => {
    const cases: Array<[string, string]> = [
      ['serial:///dev/ttyUSB0?baud=fast', "baud must be an integer from 1 to 100000000, got 'fast'"],
      ['serial:///dev/ttyUSB0?baud=0', "baud must be an integer from 1 to 100000000, got '0'"],
      ['serial:///dev/ttyUSB0?baud=', "baud must be an integer from 1 to 100000000, got ''"],
      ['serial:///dev/ttyUSB0?format=mp4', "format must be one of klv, ts, got 'mp4'"],
      ['serial:///dev/ttyUSB0?dataBits=9', "dataBits must be one of 5, 6, 7, 8, got '9'"],
      ['serial:///dev/ttyUSB0?parity=mark', "parity must be one of none, even, odd, got 'mark'"],
      ['serial:///dev/ttyUSB0?stopBits=3', "stopBits must be one of 1, 1.5, 2, got '3'"],
      ['serial:///dev/ttyUSB0?maxKlvLength=20000000', "maxKlvLength must be an integer from 1 to 16777216, got '20000000'"],
      ['serial:///dev/ttyUSB0?keys=some', "keys must be one of any, known, got 'some'"],
    ];
    for (const [url, problem] of cases) {
      const error = refusal(url);
      expect(error.code).to.equal('ERR_SOURCE_URL_INVALID');
      expect(error.message).to.equal(`invalid serial source '${url}': ${problem}`);
      expect(error.details).to.deep.equal({ url, parameter: problem.split(' ')[0] });
    }
  });

  it('refuses unknown and repeated parameters, so a typo never passes for a default', () => {
    expect(refusal('serial:///dev/ttyUSB0?baudrate=9600').message).to.equal(
      "invalid serial source 'serial:///dev/ttyUSB0?baudrate=9600': unknown parameter 'baudrate' (known: baud, format, dataBits, parity, stopBits, maxKlvLength, keys)",
    );
    expect(refusal('serial:///dev/ttyUSB0?baud=9600&baud=19200').message).to.match(/parameter 'baud' given twice$/);
  });

  it('refuses a URL without a device, with a host, or of another scheme', () => {
    expect(refusal('serial:').message).to.match(/no device path \(write e\.g\. serial:\/\/\/dev\/ttyUSB0\)$/);
    expect(refusal('serial:///').message).to.match(/no device path/);
    expect(refusal('serial:ttyUSB0').message).to.match(/no device path/);
    expect(refusal('serial://dev/ttyUSB0').message).to.match(/a serial device is local, but the URL names host 'dev' \(write serial:\/\/\/dev\/ttyUSB0\)$/);
    expect(refusal('serial:///dev/ttyUSB0#x').message).to.match(/unexpected fragment '#x'$/);
    expect(refusal('udp://239.1.1.1:5000').message).to.match(/the scheme must be 'serial:'$/);
  });
});
