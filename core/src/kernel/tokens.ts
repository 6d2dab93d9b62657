/**
 * The services of the engine, each an interface plus a typed token (the VS
 * Code `createDecorator` idea without decorators). tsyringe's own token type
 * forgets the service type for a symbol, so a ServiceToken<T> carries it and
 * `resolveService` / `provideService` (container.ts) check it both ways.
 */
import type { InjectionToken } from 'tsyringe';
import type { CheckRegistry } from './check-registry.js';
import type { DemuxerFactory } from './demuxer-factory.js';
import type { KernelConfig } from './kernel-config.js';
import type { Logger } from './logger.js';
import type { WallClock } from './wall-clock.js';

declare const serviceType: unique symbol;

/** A tsyringe token that remembers the type of the service it names. */
export type ServiceToken<T> = symbol & { readonly [serviceType]?: T } & InjectionToken<T>;

/** A new token; `description` shows in tsyringe's "unregistered dependency" errors. */
export function serviceToken<T>(description: string): ServiceToken<T> {
  const token: ServiceToken<T> = Symbol(description);
  return token;
}

/** The checks available to runs: built-ins and loaded plugins. */
export const CHECK_REGISTRY = serviceToken<CheckRegistry>('klvscope.CheckRegistry');
/** Makes the demuxer of each run. */
export const DEMUXER_FACTORY = serviceToken<DemuxerFactory>('klvscope.DemuxerFactory');
/** Wall-clock time. */
export const WALL_CLOCK = serviceToken<WallClock>('klvscope.WallClock');
export const LOGGER = serviceToken<Logger>('klvscope.Logger');
/** The kernel's slice of the configuration. */
export const KERNEL_CONFIG = serviceToken<KernelConfig>('klvscope.KernelConfig');
