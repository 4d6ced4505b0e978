import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

/**
 * How a route's answer becomes JSON.
 *
 * - `fast` (what runs): fast-json-stringify compiled once per route from the JSON Schema of
 *   its zod response schema. It writes only the properties the schema names (as zod's
 *   encoding does) and throws on a missing required one (a 500), but it does not check
 *   types or values: zod's encoding did, and copied every answer before JSON.stringify, a
 *   third of a small GET's time.
 * - `checked` (the tests, NODE_ENV=test): zod's encoding, as it was, and the fast text
 *   beside it: an answer on which they disagree is a 500 naming the route, so every test
 *   that gets an answer also checks the fast serializer against zod.
 *
 * A schema JSON Schema cannot express (a transform) keeps zod's encoding for that route.
 */
export type SerializerMode = 'fast' | 'checked';

type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0];
type Serialize = (data: unknown) => string;

const zodSerializer = createSerializerCompiler({}) as unknown as (route: RouteSchema) => Serialize;

/** `anyOf: [X, null]` with X of one type, as `type: [X's type, "null"]`, which fast-json-stringify writes without trying each branch. */
function simplifyNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifyNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplifyNullable(value);
  const anyOf = out.anyOf as Record<string, unknown>[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === 'string' && other.type !== 'object' && other.type !== 'array') {
      delete out.anyOf;
      return { ...out, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** The JSON Schema fast-json-stringify compiles for a zod response schema. */
export function responseJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as Record<string, unknown>;
  return simplifyNullable(json) as Record<string, unknown>;
}

function fastSerializer(route: RouteSchema): Serialize | null {
  const schema = route.schema instanceof z.ZodType ? route.schema : null;
  if (!schema) return null;
  try {
    return fastJson(responseJsonSchema(schema) as never) as Serialize;
  } catch {
    return null;
  }
}

/** The fast text, once zod's encoding of the same answer says the same (else an error naming the route). */
export function checkedAgainstZod(route: Pick<RouteSchema, 'method' | 'url'>, zod: Serialize, fast: Serialize): Serialize {
  return (data) => {
    const expected = zod(data);
    const text = fast(data);
    if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(expected))) {
      throw new Error(`the fast serializer of ${route.method} ${route.url} wrote ${text} where zod wrote ${expected}`);
    }
    return text;
  };
}

export function serializerCompilerFor(mode: SerializerMode): (route: RouteSchema) => Serialize {
  return (route) => {
    const zod = zodSerializer(route);
    const fast = fastSerializer(route);
    if (!fast) return zod;
    return mode === 'fast' ? fast : checkedAgainstZod(route, zod, fast);
  };
}

/** `checked` under vitest (NODE_ENV=test), else `fast`. */
export function serializerModeFromEnv(env: NodeJS.ProcessEnv = process.env): SerializerMode {
  return env.NODE_ENV === 'test' ? 'checked' : 'fast';
}
