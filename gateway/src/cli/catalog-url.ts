/** The fleet's catalog: `--catalog postgres://…`, else KLVSCOPE_CATALOG_URL; none means the embedded data folder. */
import { UsageError } from './usage-error.js';

export const CATALOG_URL_ENV = 'KLVSCOPE_CATALOG_URL';

export function catalogUrlOption(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = given ?? (env[CATALOG_URL_ENV] || undefined);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`--catalog takes a PostgreSQL URL (postgres://user@host:5432/database), got '${url}'`);
  return url;
}

/** As catalogUrlOption, for the commands that have no embedded form. */
export function requiredCatalogUrl(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = catalogUrlOption(given, env);
  if (url === undefined) throw new UsageError(`the fleet's catalog is needed: --catalog postgres://user@host:5432/database, or ${CATALOG_URL_ENV}`);
  return url;
}
