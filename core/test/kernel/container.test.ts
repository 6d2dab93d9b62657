import { expect } from 'chai';
import { CheckRegistry } from '../../src/kernel/check-registry.js';
import { createContainer, provideService, resolveService } from '../../src/kernel/container.js';
import { createTsDemuxer } from '../../src/kernel/demuxer-factory.js';
import { DEFAULT_KERNEL_CONFIG, type KernelConfig } from '../../src/kernel/kernel-config.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { CHECK_REGISTRY, DEMUXER_FACTORY, KERNEL_CONFIG, LOGGER, WALL_CLOCK, serviceToken } from '../../src/kernel/tokens.js';
import { systemClock } from '../../src/kernel/wall-clock.js';

describe('createContainer', () => {
  it('registers core defaults for every kernel token', () => {
    const container = createContainer();
    expect(resolveService(container, CHECK_REGISTRY)).to.be.instanceOf(CheckRegistry);
    expect(resolveService(container, DEMUXER_FACTORY)).to.equal(createTsDemuxer);
    expect(resolveService(container, WALL_CLOCK)).to.equal(systemClock);
    expect(resolveService(container, KERNEL_CONFIG)).to.equal(DEFAULT_KERNEL_CONFIG);
    expect(Object.keys(resolveService(container, LOGGER))).to.deep.equal(['debug', 'info', 'warn', 'error']);
  });

  it('gives each container its own check registry, the same one on every resolve', () => {
    const first = createContainer();
    const second = createContainer();
    expect(resolveService(first, CHECK_REGISTRY)).to.equal(resolveService(first, CHECK_REGISTRY));
    expect(resolveService(first, CHECK_REGISTRY)).not.to.equal(resolveService(second, CHECK_REGISTRY));
  });

  it('lets the composition root replace a default in its container only', () => {
    const root = createContainer();
    const config: KernelConfig = { rules: { 'mpegts-pcr-intervals': { maxIntervalMs: 100 } }, maxPointsPerCheck: 5 };
    provideService(root, KERNEL_CONFIG, { useValue: config });
    provideService(root, LOGGER, { useFactory: () => silentLogger });
    expect(resolveService(root, KERNEL_CONFIG)).to.equal(config);
    expect(resolveService(root, LOGGER)).to.equal(silentLogger);
    expect(resolveService(createContainer(), KERNEL_CONFIG)).to.equal(DEFAULT_KERNEL_CONFIG);
  });

  it('registers new services under new tokens, built by factories from other services', () => {
    const container = createContainer();
    const CHECK_COUNT = serviceToken<number>('test.CheckCount');
    provideService(container, CHECK_COUNT, { useFactory: (c) => resolveService(c, CHECK_REGISTRY).size });
    expect(resolveService(container, CHECK_COUNT)).to.equal(0);
  });

  it('reports a token nothing is registered for, by its description', () => {
    expect(() => resolveService(createContainer(), serviceToken<number>('test.Unregistered'))).to.throw(/test\.Unregistered/);
  });
});
