/**
 * import() of a module named at run time: check modules (by file URL) and
 * serialport. One place for it, because the installed CLI supplies its own
 * under Symbol.for('klvscope.importModule'): it runs its bundle from V8's code cache
 * (gateway/bin/load-cli.cjs), and in Node 20 code restored from a code cache
 * has no import() of its own.
 */
const IMPORT_MODULE_HOOK = Symbol.for('klvscope.importModule');

type ModuleImporter = (specifier: string) => Promise<unknown>;

export function importModule(specifier: string): Promise<unknown> {
  const supplied = (globalThis as { [IMPORT_MODULE_HOOK]?: ModuleImporter })[IMPORT_MODULE_HOOK];
  return supplied ? supplied(specifier) : import(specifier);
}
