/** `klvscope generate OUT.ts ...` — placeholder until the generator lands. */
import type { GenerateCliOptions } from './main.js';
import { UsageError } from './usage-error.js';

export function runGenerate(_out: string, _options: GenerateCliOptions): Promise<void> {
  return Promise.reject(new UsageError('generate is not available yet'));
}
