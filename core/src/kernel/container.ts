/**
 * The dependency-injection container with core's defaults. The one
 * composition root (in the gateway) calls createContainer() and registers
 * over the defaults what core cannot know: loaded checks, the KLV-aware
 * demuxer factory, the real logger and configuration.
 *
 * Only explicit tokens with value and factory providers: no decorators, as
 * tsx/esbuild emit no decorator metadata for tsyringe to read.
 */
// tsyringe refuses to load without a Reflect metadata polyfill; this is the
// only module that loads tsyringe at run time, so the polyfill goes here.
import 'reflect-metadata';
import { type DependencyContainer, container as rootContainer } from 'tsyringe';
import { CheckRegistry } from './check-registry.js';
import { createTsDemuxer } from './demuxer-factory.js';
import { DEFAULT_KERNEL_CONFIG } from './kernel-config.js';
import { createConsoleLogger } from './logger.js';
import { CHECK_REGISTRY, DEMUXER_FACTORY, KERNEL_CONFIG, LOGGER, type ServiceToken, WALL_CLOCK } from './tokens.js';
import { systemClock } from './wall-clock.js';

export type { DependencyContainer };

/** A service given as a value, or made by a factory from the container (called on every resolve). */
export type ServiceProvider<T> = { useValue: T } | { useFactory: (container: DependencyContainer) => T };

/**
 * A child of tsyringe's global container with core's defaults registered.
 * Each call gives independent services (its own check registry), so tests
 * and concurrent engines do not share state.
 */
export function createContainer(): DependencyContainer {
  const container = rootContainer.createChildContainer();
  provideService(container, CHECK_REGISTRY, { useValue: new CheckRegistry() });
  provideService(container, DEMUXER_FACTORY, { useValue: createTsDemuxer });
  provideService(container, WALL_CLOCK, { useValue: systemClock });
  provideService(container, LOGGER, { useValue: createConsoleLogger('warn') });
  provideService(container, KERNEL_CONFIG, { useValue: DEFAULT_KERNEL_CONFIG });
  return container;
}

/** Registers a service under its token, type-checked against the token (tsyringe's `register` is not). */
export function provideService<T>(container: DependencyContainer, token: ServiceToken<T>, provider: ServiceProvider<T>): DependencyContainer {
  return 'useValue' in provider ? container.register<T>(token, { useValue: provider.useValue }) : container.register<T>(token, { useFactory: provider.useFactory });
}

/** Resolves a service with the type its token names. */
export function resolveService<T>(container: DependencyContainer, token: ServiceToken<T>): T {
  return container.resolve<T>(token);
}
