/** The built-in checks, in the order of the inspection service's detail endpoints (see detail-endpoint-ids.ts). */
import type { AnyCheck } from '@klvscope/core';

export const BUILT_IN_CHECKS: readonly AnyCheck[] = [];
