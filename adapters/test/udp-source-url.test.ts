import { expect } from 'chai';
import { thrownBy } from '../../test-support/thrown.js';
import { AdapterError } from '../src/adapter-error.js';
import { DEFAULT_RECEIVE_BUFFER_BYTES, parseUdpSourceUrl } from '../src/udp-source-url.js';

describe('UDP source URLs', () => {
  it('joins a multicast group bound to the group address, with the defaults', () => {
    expect(parseUdpSourceUrl('udp://239.1.2.3:5000')).to.deep.equal({
      bindAddress: '239.1.2.3',
      port: 5000,
      group: '239.1.2.3',
      source: null,
      interfaceAddress: null,
      receiveBufferBytes: DEFAULT_RECEIVE_BUFFER_BYTES,
      rtp: 'auto',
    });
  });

  it('takes SOURCE@GROUP as source-specific multicast, with the interface, buffer and RTP options', () => {
    expect(parseUdpSourceUrl('udp://10.0.0.7@232.4.5.6:1234?interface=192.168.1.20&rcvbuf=1048576&rtp=on')).to.deep.equal({
      bindAddress: '232.4.5.6',
      port: 1234,
      group: '232.4.5.6',
      source: '10.0.0.7',
      interfaceAddress: '192.168.1.20',
      receiveBufferBytes: 1_048_576,
      rtp: 'on',
    });
  });

  it('binds a unicast host address, and every address for udp://:PORT and 0.0.0.0', () => {
    expect(parseUdpSourceUrl('udp://127.0.0.1:6000')).to.include({ bindAddress: '127.0.0.1', port: 6000, group: null });
    expect(parseUdpSourceUrl('udp://:6000?rtp=off')).to.include({ bindAddress: '0.0.0.0', port: 6000, group: null, rtp: 'off' });
    expect(parseUdpSourceUrl('udp://0.0.0.0:6000')).to.include({ bindAddress: '0.0.0.0', group: null });
  });

  it("reads VLC's and ffmpeg's udp://@GROUP:PORT as no source, and takes a trailing slash", () => {
    expect(parseUdpSourceUrl('udp://@239.1.2.3:5000')).to.include({ group: '239.1.2.3', source: null });
    expect(parseUdpSourceUrl('udp://@:5000')).to.include({ bindAddress: '0.0.0.0', source: null });
    expect(parseUdpSourceUrl('udp://239.1.2.3:5000/?rtp=off')).to.include({ group: '239.1.2.3', rtp: 'off' });
  });

  it('takes port 0 for unicast (the system picks one) and the edges of the multicast range', () => {
    expect(parseUdpSourceUrl('udp://127.0.0.1:0').port).to.equal(0);
    expect(parseUdpSourceUrl('udp://224.0.0.251:5353').group).to.equal('224.0.0.251');
    expect(parseUdpSourceUrl('udp://239.255.255.255:1').group).to.equal('239.255.255.255');
    expect(parseUdpSourceUrl('udp://240.0.0.1:1').group).to.equal(null);
  });

  const bad: Array<[string, RegExp]> = [
    ['http://239.1.1.1:5000', /not a udp:\/\/ URL/],
    ['udp://239.1.1.1', /port is missing/],
    ['udp://239.1.1.1:70000', /port '70000' is not a number from 0 to 65535/],
    ['udp://239.1.1.1:50x', /port '50x'/],
    ['udp://239.1.1.1:0', /multicast group needs a port/],
    ['udp://[ff02::1]:5000', /IPv6 is not supported/],
    ['udp://camera.local:5000', /'camera.local' is not an IPv4 address/],
    ['udp://239.1.1.256:5000', /'239.1.1.256' is not an IPv4 address/],
    ['udp://010.1.1.1:5000', /not an IPv4 address/],
    ['udp://10.0.0.7@127.0.0.1:5000', /'127.0.0.1' is not a multicast address/],
    ['udp://239.9.9.9@232.1.1.1:5000', /must be the unicast address of the sender/],
    ['udp://127.0.0.1:5000?interface=127.0.0.1', /interface= applies to multicast groups/],
    ['udp://239.1.1.1:5000?interface=eth0', /interface must be an IPv4 address, got 'eth0'/],
    ['udp://239.1.1.1:5000?rcvbuf=big', /rcvbuf must be an integer from 4096/],
    ['udp://239.1.1.1:5000?rtp=maybe', /rtp must be auto, on or off, got 'maybe'/],
    ['udp://239.1.1.1:5000?ttl=3', /unknown option 'ttl'; the options are interface, rcvbuf, rtp/],
    ['udp://239.1.1.1:5000?rtp=on&rtp=off', /option 'rtp' is given twice/],
    ['udp://239.1.1.1:5000/stream', /no path or fragment/],
  ];
  for (const [url, message] of bad) {
    it(`refuses ${url} with ERR_SOURCE_URL_INVALID naming the problem`, () => {
      const error = thrownBy(() => parseUdpSourceUrl(url));
      if (!(error instanceof AdapterError)) throw error;
      expect(error.code).to.equal('ERR_SOURCE_URL_INVALID');
      expect(error.message).to.match(message);
      expect(error.message).to.contain(url);
      expect(error.details).to.deep.equal({ url });
    });
  }
});
