/**
 * zod's English messages ("Invalid input: expected number, received
 * string") for every parse of a rule slice, a rule set or a configuration.
 * Classic `zod` installs its English locale when it builds its first schema;
 * `zod/mini`, which klvscope uses for start-up time, installs none, so
 * without this its issues would all read "Invalid input".
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * Installs zod's English locale unless one is set already (an application's
 * own `z.config(...)` wins, as with classic zod). Call before parsing.
 */
export function ensureEnglishZodMessages(): void {
  if (config().localeError === undefined) config(en());
}
