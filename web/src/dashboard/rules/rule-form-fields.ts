/**
 * The rule set's form, read from its JSON Schema (rule-set-json-schema.json,
 * made from the registered checks; see web/test/dashboard-rules-schema.test.ts):
 * one field per shared setting and per rule of each check, its input kind
 * from the schema's type, its hint from the rule's description. Nothing here
 * knows a check by name: a new check or rule is a new field.
 */
import ruleSetJsonSchema from './rule-set-json-schema.json';

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export type FieldKind = 'number' | 'integer' | 'boolean' | 'choice' | 'choices' | 'list' | 'json';

export interface RuleField {
  /** Where the value is in a rule set: ['checks', 'mpegts-pcr-intervals', 'maxIntervalMs']. */
  path: string[];
  name: string;
  kind: FieldKind;
  /** null is a value of its own (a rule turned off). */
  nullable: boolean;
  description: string | null;
  /** For choice and choices. */
  options: string[];
  /** For list: whether the items are numbers. */
  numericItems: boolean;
  /** The bounds, as the schema says them (`> 0`, `≥ 1`), for the hint. */
  bounds: string | null;
}

export interface RuleFieldGroup {
  /** 'shared' or a check id. */
  id: string;
  fields: RuleField[];
}

/** `dotted.path[of]` as the service names a rule in its problems (rules/src/rule-problems.ts formatPath). */
export function fieldKey(path: readonly string[]): string {
  return path.join('.');
}

export function ruleFieldGroups(schema: JsonSchema = ruleSetJsonSchema): RuleFieldGroup[] {
  const shared = schema.properties?.shared?.properties ?? {};
  const checks = schema.properties?.checks?.properties ?? {};
  return [
    { id: 'shared', fields: Object.entries(shared).map(([name, field]) => describeField(['shared', name], field)) },
    ...Object.entries(checks).map(([id, check]) => ({
      id,
      fields: Object.entries(check.properties ?? {}).map(([name, field]) => describeField(['checks', id, name], field)),
    })),
  ];
}

/** The profile names the schema allows (the service's GET /validation-rules lists them too). */
export function profileNames(schema: JsonSchema = ruleSetJsonSchema): string[] {
  return (schema.properties?.profile?.enum ?? []).map(String);
}

function describeField(path: string[], given: JsonSchema): RuleField {
  // zod writes a nullable rule as anyOf [the rule, null]: the rule's own schema carries its description.
  const variants = given.anyOf ?? [given];
  const nullable = variants.some((variant) => variant.type === 'null');
  const field = variants.find((variant) => variant.type !== 'null') ?? given;
  return {
    path,
    name: path[path.length - 1],
    kind: kindOf(field),
    nullable,
    description: given.description ?? field.description ?? null,
    options: (field.enum ?? field.items?.enum ?? []).map(String),
    numericItems: field.items?.type === 'integer' || field.items?.type === 'number',
    bounds: boundsOf(field.type === 'array' ? (field.items ?? {}) : field),
  };
}

function kindOf(field: JsonSchema): FieldKind {
  if (field.enum !== undefined) return 'choice';
  if (field.type === 'number' || field.type === 'integer' || field.type === 'boolean') return field.type;
  if (field.type === 'array' && field.items?.enum !== undefined) return 'choices';
  if (field.type === 'array' && ['integer', 'number', 'string'].includes(field.items?.type ?? '')) return 'list';
  return 'json';
}

function boundsOf(field: JsonSchema): string | null {
  const parts: string[] = [];
  if (field.exclusiveMinimum !== undefined) parts.push(`> ${field.exclusiveMinimum}`);
  if (field.minimum !== undefined) parts.push(`≥ ${field.minimum}`);
  // zod gives every integer the largest safe integer as its maximum: not worth saying.
  if (field.maximum !== undefined && field.maximum < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${field.maximum}`);
  if (field.exclusiveMaximum !== undefined) parts.push(`< ${field.exclusiveMaximum}`);
  return parts.length === 0 ? null : parts.join(', ');
}
