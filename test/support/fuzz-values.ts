/**
 * Values a hostile client sends, generated from a route's own parameter specs: usually well-formed,
 * sometimes just outside each rule, wrong types, junk, and now and then an unknown parameter. The
 * REST fuzz (test/rest/fuzz.test.ts) and the MCP fuzz (test/mcp/fuzz.test.ts) draw on the same.
 */
import fc from 'fast-check';
import type { ParamKind, ParamSpec } from '../../rest/params';

export const junkString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
    '%00',
    '\u0000',
    '../../etc/passwd',
    '<script>',
    "' OR 1=1 --",
    'ﬀ',
    '🙂',
    'a,b,,c',
    '[]',
    '{}',
  ),
  fc.string({ minLength: 300, maxLength: 600 }),
);

/** A value of a parameter kind: usually well-formed, sometimes just outside its rule. */
export function valueOf(kind: ParamKind): fc.Arbitrary<unknown> {
  switch (kind.type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: kind.maxLength }), fc.string({ minLength: kind.maxLength + 1, maxLength: kind.maxLength + 5 }), junkString);
    case 'enum':
      return fc.oneof(
        fc.constantFrom(...kind.values),
        fc.constantFrom(...kind.values).map((v) => v.toUpperCase()),
        junkString,
      );
    case 'integer':
      return fc.oneof(fc.integer({ min: kind.min, max: kind.max }), fc.constantFrom(kind.min - 1, kind.max + 1, 2 ** 53, -0, 1.5), junkString);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('TRUE', 'yes', '1', 0), junkString);
    case 'date':
      return fc.oneof(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        fc.constantFrom('2025-02-29', '2024-13-01', '0000-00-00', '20240101'),
        junkString,
      );
    case 'timestamp':
      return fc.oneof(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom('2024-01-01T25:00:00Z', '2024-01-01T00:00:00+99:00'),
        junkString,
      );
    case 'id':
      return fc.oneof(
        fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{20}$/).map((body) => `${kind.prefix}${body}`),
        fc.constantFrom('tm_', 'own_0123456789abcdefghjk', 'key_ZZZ', `${kind.prefix}${'a'.repeat(80)}`),
        junkString,
      );
    case 'sort':
      return fc.oneof(fc.constantFrom(...kind.fields.flatMap((f) => [f, `-${f}`])), junkString);
    case 'objects':
      return fc.oneof(
        fc.array(fc.dictionary(fc.constantFrom(...kind.fields.map((f) => f.name), 'unknown'), fc.oneof(junkString, fc.integer(), fc.constant(null))), {
          maxLength: 5,
        }),
        fc.constant(Array.from({ length: kind.batchLimit + 1 }, () => ({}))),
        junkString,
      );
    case 'stringMap':
      return fc.oneof(
        fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)), { maxKeys: 60 }),
        junkString,
        fc.integer(),
      );
    case 'object':
      return fc.oneof(fc.jsonValue({ maxDepth: 4 }), junkString);
  }
}

/** Parameters for one request: some of the route's own (lists sometimes), sometimes an unknown one. */
export function paramsOf(specs: readonly ParamSpec[]): fc.Arbitrary<Record<string, unknown>> {
  const known =
    specs.length === 0
      ? fc.constant({})
      : fc.record(
          Object.fromEntries(
            specs.map((spec) => [spec.name, spec.array ? fc.oneof(valueOf(spec.kind), fc.array(valueOf(spec.kind), { maxLength: 3 })) : valueOf(spec.kind)]),
          ),
          {
            requiredKeys: [],
          },
        );
  return fc
    .tuple(known, fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), junkString), { nil: undefined }))
    .map(([params, extra]) => (extra ? { ...params, [extra[0]]: extra[1] } : params));
}
