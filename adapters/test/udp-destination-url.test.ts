import { expect } from 'chai';
import { thrownBy } from '../../test-support/thrown.js';
import { AdapterError } from '../src/adapter-error.js';
import { parseUdpDestinationUrl } from '../src/udp-destination-url.js';

describe('UDP destination URLs', () => {
  it('sends to a unicast address with the system TTL', () => {
    expect(parseUdpDestinationUrl('udp://127.0.0.1:5000')).to.deep.equal({ host: '127.0.0.1', port: 5000, multicast: false, ttl: null, interfaceAddress: null });
  });

  it('sends to a multicast group with TTL 1 unless told otherwise', () => {
    expect(parseUdpDestinationUrl('udp://239.1.1.1:5000')).to.deep.equal({ host: '239.1.1.1', port: 5000, multicast: true, ttl: 1, interfaceAddress: null });
    expect(parseUdpDestinationUrl('udp://239.1.1.1:5000?ttl=0&interface=10.1.2.3')).to.deep.equal({
      host: '239.1.1.1',
      port: 5000,
      multicast: true,
      ttl: 0,
      interfaceAddress: '10.1.2.3',
    });
  });

  const bad: Array<[string, RegExp]> = [
    ['udp://:5000', /destination address is missing/],
    ['udp://0.0.0.0:5000', /destination address is missing/],
    ['udp://127.0.0.1:0', /port must be from 1 to 65535/],
    ['udp://10.0.0.1@239.1.1.1:5000', /a destination has none/],
    ['udp://127.0.0.1:5000?ttl=0', /ttl must be an integer from 1 to 255/],
    ['udp://239.1.1.1:5000?ttl=256', /ttl must be an integer from 0 to 255/],
    ['udp://239.1.1.1:5000?rtp=on', /unknown option 'rtp'; the options are ttl, interface/],
    ['udp://localhost:5000', /'localhost' is not an IPv4 address/],
  ];
  for (const [url, message] of bad) {
    it(`refuses ${url} with ERR_DESTINATION_URL_INVALID naming the problem`, () => {
      const error = thrownBy(() => parseUdpDestinationUrl(url));
      if (!(error instanceof AdapterError)) throw error;
      expect(error.code).to.equal('ERR_DESTINATION_URL_INVALID');
      expect(error.message).to.match(message);
    });
  }
});
