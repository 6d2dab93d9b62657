import { expect } from 'chai';
import { Store } from '@klvscope/core/store';
import { defineRoute, type RouteModule } from '../../src/http/service-route.js';
import { startTestServer, tempDataDir } from './test-server.js';

/** A route that holds its answer until the test lets it go. */
function gatedRoute(): { module: RouteModule; entered: Promise<void>; release: () => void } {
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const module: RouteModule = (deps) => [
    defineRoute({
      method: 'GET',
      path: '/test/slow',
      summary: 'answers once released',
      schemas: {},
      handle: async () => {
        enter();
        await gate;
        return { storeOpen: deps.store.isOpen };
      },
    }),
  ];
  return { module, entered, release };
}

describe('inspection service lifecycle', function () {
  it('lets a request in flight finish on close, then closes the store and releases the data folder', async () => {
    const dataDir = tempDataDir();
    const gated = gatedRoute();
    const server = await startTestServer({ dataDir, routes: [gated.module] });
    const inFlight = server.call('/test/slow');
    await gated.entered;
    const closed = server.close();
    gated.release();
    expect(await inFlight).to.deep.include({ status: 200, json: { storeOpen: true } });
    await closed;
    for (const url of server.urls) {
      const error = await fetch(`${url}/health`).then(
        () => null,
        (e: Error & { cause?: { code?: string } }) => e.cause?.code,
      );
      expect(error, url).to.equal('ECONNREFUSED');
    }
    await (await Store.open({ dataDir })).close();
  });

  it('leaves a store it was given open, for its owner to close', async () => {
    const store = await Store.open({ dataDir: tempDataDir() });
    const server = await startTestServer({ store });
    expect((await server.call('/health')).status).to.equal(200);
    await server.close();
    expect(store.isOpen).to.equal(true);
    await store.close();
  });
});
