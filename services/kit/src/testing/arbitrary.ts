import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries from proto's zod schemas, for the generated bad-input tests. There is no
 * maintained zod-4-to-arbitrary package, so this covers the kinds proto uses: objects, strings
 * (uuid, e-mail, ISO date-time, lengths), numbers (bounds, integers), booleans, enums, literals,
 * arrays, unions, optional, nullable, default and pipes. Anything else is fc.anything().
 */

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  checks?: {
    _zod: { def: { check: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number } };
  }[];
  entries?: Record<string, string>;
  values?: unknown[];
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const bound = (def: Def, check: string, key: 'value' | 'minimum' | 'maximum'): number | undefined =>
  def.checks?.find((c) => c._zod.def.check === check)?._zod.def[key];

/** Values shaped like what `schema` accepts (most pass it; refinements may refuse some). */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const requiredKeys = Object.keys(shape).filter((key) => !isOptional(shape[key]!));
      return fc.record(
        Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, arbitraryOf(field)])),
        { requiredKeys },
      );
    }
    case 'string': {
      if (def.format === 'uuid') return fc.uuid({ version: 4 });
      if (def.format === 'email') return fc.emailAddress();
      if (def.format === 'datetime')
        return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      const minLength = bound(def, 'min_length', 'minimum') ?? 0;
      const maxLength = Math.min(bound(def, 'max_length', 'maximum') ?? 40, minLength + 40);
      return fc.string({ minLength, maxLength });
    }
    case 'number': {
      const min = bound(def, 'greater_than', 'value');
      const max = bound(def, 'less_than', 'value');
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: min ?? -1e6, max: max ?? 1e6 });
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'array':
      return fc.array(arbitraryOf(def.element!), { maxLength: 4 });
    case 'union':
      return fc.oneof(...(def.options ?? []).map(arbitraryOf));
    case 'optional':
      return fc.option(arbitraryOf(def.innerType!), { nil: undefined });
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType!), { nil: null });
    case 'default':
      return arbitraryOf(def.innerType!);
    case 'pipe':
      return arbitraryOf(def.in!);
    default:
      return fc.anything();
  }
}

const isOptional = (schema: z.ZodType): boolean => ['optional', 'default'].includes(defOf(schema).type);

/** Text no field should take: control characters (NUL first), bidi overrides, or far too much. */
const hostileText = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\u0007\u001b[31m', 'evil\u202Egnp.exe', '\uFEFF', '\uD800'),
  fc.string({ minLength: 1, maxLength: 4 }).map((text) => `${text}\u0000`),
  fc.constant('x'.repeat(100_000)),
);

/** A value of the wrong kind for any field: other types, hostile text, deep nesting. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, -1, 1e308, Number.NaN, '', ' ', [], {}, '__proto__'),
  hostileText,
  fc.anything({ maxDepth: 3 }),
  fc.nat(60).map((depth) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth + 40; i++) value = { a: [value] };
    return value;
  }),
);

/**
 * Payloads `schema` refuses: a well-shaped value with one field replaced by a wrong one or left out,
 * a payload of another shape entirely (fc.anything), or hostile text in every text field. Only
 * values the schema itself refuses are kept, so a server that accepts one has a bug.
 */
export function invalidPayloadOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const shaped = arbitraryOf(schema);
  const oneFieldWrong = fc
    .tuple(shaped, wrongValue, fc.boolean(), fc.nat())
    .map(([value, wrong, drop, pick]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrong;
      const keys = Object.keys(defOf(schema).shape ?? value);
      if (keys.length === 0) return { ...value, unexpected: wrong };
      const key = keys[pick % keys.length]!;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      if (drop) delete copy[key];
      else copy[key] = wrong;
      return copy;
    });
  return fc
    .oneof(
      { weight: 6, arbitrary: oneFieldWrong },
      { weight: 2, arbitrary: fc.anything({ maxDepth: 4 }) },
      {
        weight: 1,
        arbitrary: wrongValue,
      },
    )
    .filter((payload) => !schema.safeParse(payload).success);
}
