/**
 * The checks available to runs, by id: the built-ins and the plugins loaded
 * from the configuration. Registration order is kept (it is the order of
 * results and of handler calls within a kind).
 */
import { CoreError } from './core-error.js';
import { type AnyCheck, assertCheckDefinition } from './define-check.js';
import { OBSERVATION_KINDS } from './observation-kinds.js';
import type { ObservationKind } from './observations.js';

export class CheckRegistry {
  private readonly byId = new Map<string, AnyCheck>();

  /**
   * Adds a check. Validates it again (a plugin loaded at run time may not
   * have come through defineCheck). A second check with the same id is
   * refused with ERR_CHECK_DUPLICATE: ids key results and REST paths.
   */
  register(check: AnyCheck): this {
    assertCheckDefinition(check);
    const existing = this.byId.get(check.id);
    if (existing) {
      throw new CoreError(
        'ERR_CHECK_DUPLICATE',
        `check '${check.id}' is already registered (version ${existing.version}); cannot register version ${check.version}`,
        { checkId: check.id, registeredVersion: existing.version, version: check.version },
      );
    }
    this.byId.set(check.id, check);
    return this;
  }

  registerAll(checks: Iterable<AnyCheck>): this {
    for (const check of checks) this.register(check);
    return this;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): AnyCheck | undefined {
    return this.byId.get(id);
  }

  /** The check with this id; ERR_CHECK_NOT_FOUND naming the known ids otherwise. */
  require(id: string): AnyCheck {
    const check = this.byId.get(id);
    if (check) return check;
    throw new CoreError('ERR_CHECK_NOT_FOUND', `no check '${id}' (registered: ${[...this.byId.keys()].join(', ') || 'none'})`, { checkId: id });
  }

  /** The checks named, in the order named; every registered check when `ids` is absent. */
  select(ids?: readonly string[]): AnyCheck[] {
    return ids ? ids.map((id) => this.require(id)) : this.list();
  }

  /** Every check, in registration order. */
  list(): AnyCheck[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  /** The checks that consume a kind, in registration order. */
  consumersOf(kind: ObservationKind): AnyCheck[] {
    return this.list().filter((check) => check.consumes.includes(kind));
  }

  /** For each observation kind, the ids of the checks that consume it (every kind present, maybe with none). */
  consumers(): Record<ObservationKind, string[]> {
    const table = Object.fromEntries(OBSERVATION_KINDS.map((kind) => [kind, [] as string[]])) as Record<ObservationKind, string[]>;
    for (const check of this.byId.values()) {
      for (const kind of check.consumes) table[kind].push(check.id);
    }
    return table;
  }
}
