/**
 * Hostile requests made from a service's own OpenAPI document (issue 35):
 * for each operation, fast-check makes requests that are valid as the
 * document describes them and requests that are not (wrong types, missing
 * and extra fields, huge and deeply nested values, bodies that are no JSON
 * or come under another media type, path and query values with traversal,
 * NUL bytes, odd percent-encodings and repeated keys). Nothing here sends:
 * the caller sends each request to a real server and judges the answer.
 */
import fc from 'fast-check';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  method: string;
  /** The path as the document writes it, `{name}` for a path parameter. */
  path: string;
  operationId: string;
  parameters: ReadonlyArray<{ name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }>;
  /** The JSON body's schema, or null when the operation takes none. */
  body: JsonSchema | null;
}

export interface FuzzRequest {
  operation: OpenApiOperation;
  method: string;
  /** Path and query, percent-encoded as sent, without the server's prefix. */
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Every operation of an OpenAPI 3.1 document. */
export function operationsOf(document: JsonSchema): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const body = (operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.['application/json']?.schema ?? null;
      operations.push({ method: method.toUpperCase(), path, operationId: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`, parameters: (operation.parameters ?? []) as OpenApiOperation['parameters'], body });
    }
  }
  return operations;
}

/** Values of any JSON type, some of them of a size or depth no client of ours sends. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, -0, '', ' ', '\u0000', '../../etc/passwd', '%00', '\uD800', 'NaN', '[]', '{}') },
  { weight: 1, arbitrary: fc.nat({ max: 300 }).map((depth) => nested(depth)) },
  { weight: 1, arbitrary: fc.constantFrom(100_000, 1_100_000).map((length) => 'x'.repeat(length)) },
  { weight: 1, arbitrary: fc.nat({ max: 5_000 }).map((length) => Array.from({ length }, (_, i) => i)) },
);

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

/** A value the schema accepts, as far as these keywords tell (enough to reach past the validation into the handlers). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((choice) => validValue(choice, depth)));
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  switch (type[0]) {
    case 'string':
      if (typeof schema.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= Number(schema.maxLength ?? 1_000));
        } catch {
          return fc.string();
        }
      }
      return fc.string({ minLength: Number(schema.minLength ?? 0), maxLength: Math.min(Number(schema.maxLength ?? 40), 200) });
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : -1_000)), max: Number(schema.maximum ?? 1_000_000) });
    case 'number':
      return fc.double({ min: Number(schema.minimum ?? -1e6), max: Number(schema.maximum ?? 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validValue((schema.items ?? {}) as JsonSchema, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const entries = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, depth + 1)]));
      return fc.record(entries, { requiredKeys: required.filter((name) => name in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The body of a request: valid, valid with a field wrong, missing or extra, any JSON at all, or no JSON. */
function bodyOf(schema: JsonSchema | null): fc.Arbitrary<{ text: string | undefined; contentType: string | undefined }> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => ({ text: JSON.stringify(v), contentType: 'application/json' }));
  const raw = fc.oneof(
    fc.constant({ text: undefined, contentType: undefined }),
    fc.constant({ text: '', contentType: 'application/json' }),
    fc.string({ maxLength: 200 }).map((text) => ({ text, contentType: 'application/json' })),
    fc.constantFrom('{"a":', '{"a":1}}', '\u0000', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}').map((text) => ({ text, contentType: 'application/json' })),
    json(hostileJson),
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1').chain((contentType) => fc.string({ maxLength: 100 }).map((text) => ({ text, contentType: contentType }))),
  );
  if (schema === null) return raw;
  const valid = validValue(schema);
  const changed = valid.chain((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return fc.constant(value);
    const keys = Object.keys(value);
    return fc.oneof(
      // One field of another type.
      keys.length === 0 ? fc.constant(value) : fc.tuple(fc.constantFrom(...keys), hostileJson).map(([key, wrong]) => ({ ...value, [key]: wrong })),
      // One field missing.
      keys.length === 0 ? fc.constant(value) : fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(value).filter(([name]) => name !== key))),
      // A field the schema does not know.
      fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), hostileJson).map(([key, extra]) => ({ ...value, [key]: extra })),
    );
  });
  return fc.oneof({ weight: 3, arbitrary: json(valid) }, { weight: 3, arbitrary: json(changed) }, { weight: 2, arbitrary: raw });
}

/** A path or query value: what the schema accepts, or text a client should never send. */
function parameterValue(schema: JsonSchema): fc.Arbitrary<string> {
  const odd = fc.constantFrom('', ' ', '..', '../..', '%2e%2e%2f', '%00', '%', '%zz', '%C0%AF', 'a/b', '\u00e9', '\uD83D\uDE00', '-1', '1e400', 'NaN', 'null', '[]', '0x10', '9'.repeat(400), 'x'.repeat(5_000));
  const valid = validValue(schema).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 2, arbitrary: odd }, { weight: 2, arbitrary: fc.string({ maxLength: 60 }) });
}

/** Percent-encodes a value, except when it already holds a `%` sequence meant to arrive as it is. */
function encoded(value: string): string {
  return /%[0-9A-Za-z]{0,2}/.test(value) && !/[\s/?#]/.test(value) ? value.replaceAll('\u0000', '%00') : encodeURIComponent(value);
}

/** Requests for one operation: valid and invalid, with or without the key. */
export function requestsFor(operation: OpenApiOperation, key: { name: string; value: string }): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParameters.map((p) => parameterValue(p.schema)));
  const declaredQuery = fc.subarray(queryParameters).chain((chosen) => fc.tuple(...chosen.map((p) => parameterValue(p.schema).map((value) => [p.name, value] as const))));
  const extraQuery = fc.array(fc.tuple(fc.constantFrom('limit', 'offset', '_limit', '__proto__', 'x', 'format', 'cursor'), parameterValue({ type: 'string' })), { maxLength: 3 });
  const auth = fc.oneof({ weight: 9, arbitrary: fc.constant(key.value) }, { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'wrong-key', `${key.value} `) });
  return fc.record({ pathValues, declaredQuery, extraQuery, body: bodyOf(operation.body), auth }).map(({ pathValues: values, declaredQuery: query, extraQuery: extra, body, auth: keyValue }) => {
    let index = 0;
    const path = operation.path.replace(/\{[^}]+\}/g, () => encoded(values[index++] ?? ''));
    const pairs = [...query, ...extra].map(([name, value]) => `${encodeURIComponent(name)}=${encoded(value)}`);
    const headers: Record<string, string> = {};
    if (keyValue !== undefined) headers[key.name] = keyValue;
    if (body.contentType !== undefined && body.text !== undefined) headers['content-type'] = body.contentType;
    return { operation, method: operation.method, target: pairs.length > 0 ? `${path}?${pairs.join('&')}` : path, headers, body: body.text };
  });
}

/** Whether a body is the project's JSON error body (DESIGN.md): `{"error":{"code","message","details"?}}`. */
export function isErrorBody(text: string): boolean {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    return typeof body.error?.code === 'string' && typeof body.error.message === 'string' && body.error.code.length > 0;
  } catch {
    return false;
  }
}
