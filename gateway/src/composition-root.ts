/**
 * The one composition root: every service the gateway's commands and
 * servers use is registered here, over core's defaults. Later issues add the
 * KLV-aware demuxer factory, the built-in checks, loaded plugins, the store
 * and the configuration.
 */
import { createContainer, type DependencyContainer } from '@klvscope/core';

export function composeApplication(): DependencyContainer {
  return createContainer();
}
