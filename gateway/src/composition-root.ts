/**
 * The one composition root: every service the gateway's commands and
 * servers use is registered here, over core's defaults. Later issues add the
 * built-in checks, loaded plugins, the store and the configuration.
 */
import { DEMUXER_FACTORY, createContainer, createKlvAwareTsDemuxer, provideService, type DependencyContainer } from '@klvscope/core';

export function composeApplication(): DependencyContainer {
  const container = createContainer();
  // Transport streams are read with their KLV (MISB ST 1402 carriage).
  provideService(container, DEMUXER_FACTORY, { useValue: createKlvAwareTsDemuxer });
  return container;
}
