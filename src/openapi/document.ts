/**
 * Builds an OpenAPI 3.1 document from zod schemas: the schemas that validate are the ones documented,
 * path parameters included. The document is held to what the servers answer by `npm run fuzz`.
 */
import { z } from 'zod';

/**
 * An OpenAPI link: how a value of this answer feeds another operation (`$response.body#/batchId`,
 * `$request.path.batchId`), which is what the fuzzer's stateful phase follows to reach real resources.
 */
export interface LinkSpec {
  operationId: string;
  parameters?: Record<string, string>;
  requestBody?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** The media type of the body, when not JSON (a page, a script). */
  contentType?: string;
  links?: Record<string, LinkSpec>;
}

/** Security scheme name → the scopes it must grant (none: the credential alone). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OperationSpec {
  /** The operationId (verb and noun, stable: generated clients name their functions by it; links name it). */
  id: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express style (`/v1/payouts/:externalId`); converted to OpenAPI's `{externalId}`. */
  path: string;
  summary: string;
  description?: string;
  /**
   * Alternative requirements, any one of which will do (OpenAPI's own form): each maps the security schemes that must
   * all be present to the scopes each needs (OpenAPI 3.1 lets any scheme name scopes, as roles).
   */
  security?: readonly SecurityRequirement[];
  /** An object schema of the path parameters; every `:name` of the path must be one of its keys. */
  params?: z.ZodType;
  /** An object schema of the request headers the operation reads (other than credentials). */
  headers?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out altogether (every field of it then takes its default). */
  bodyOptional?: boolean;
  query?: z.ZodType;
  responses: Record<number, ResponseSpec>;
}

type JsonSchema = Record<string, unknown>;

/**
 * Metadata key for the wire form of a value that its zod schema cannot show: a path segment is text
 * that the server reads as an integer, for instance. The generator puts this JSON Schema in its place.
 */
const WIRE_SCHEMA = 'x-wire-schema';

/** Documents `schema` as `wire` (a JSON Schema), while `schema` still validates. */
export function documentedAs<T extends z.ZodType>(schema: T, wire: JsonSchema): T {
  return schema.meta({ [WIRE_SCHEMA]: wire });
}

/** Metadata key for the examples of a request: zod leaves out `examples` of a schema that transforms (they would describe its output). */
const REQUEST_EXAMPLES = 'x-request-examples';

/** Documents `examples` of what a client sends to `schema`. */
export function withRequestExamples<T extends z.ZodType>(schema: T, examples: readonly unknown[]): T {
  return schema.meta({ [REQUEST_EXAMPLES]: examples });
}

/**
 * What strict validators and linters need of a generated schema: one lower bound (an exclusiveMinimum
 * replaces the minimum it tightens); a record keyed by an enum names its properties (zod lists the keys
 * as required without them); an answer's amount without `multipleOf: 0.01`, which a validator dividing
 * binary floats refuses for 10.13 (the description says "at most 2 places"; requests keep it, see
 * docs/assumptions.md).
 */
function strictValidatorFriendly(target: JsonSchema, io: 'input' | 'output'): void {
  if (typeof target.minimum === 'number' && typeof target.exclusiveMinimum === 'number' && target.exclusiveMinimum >= target.minimum) delete target.minimum;
  const keys = (target.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (Array.isArray(keys) && target.properties === undefined && typeof target.additionalProperties === 'object') {
    target.properties = Object.fromEntries(keys.map((key) => [String(key), target.additionalProperties]));
  }
  if (io === 'output' && target.multipleOf === 0.01) {
    delete target.multipleOf;
    target.description ??= 'A decimal with at most 2 places';
  }
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      const target: JsonSchema = ctx.jsonSchema;
      strictValidatorFriendly(target, io);
      if (target[REQUEST_EXAMPLES] !== undefined) {
        target.examples = target[REQUEST_EXAMPLES];
        delete target[REQUEST_EXAMPLES];
      }
      const wire = target[WIRE_SCHEMA];
      if (wire === undefined) return;
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, wire);
    },
  });
}

const DEFS_REF = '#/$defs/';

/**
 * The named shapes met while building a document: a schema defined with `.meta({ id: 'Payout' })` is listed
 * once under components/schemas and referred to by `$ref`, so generated clients name its type. zod puts a named shape in `$defs` of each schema that
 * uses it; they are moved to components/schemas. A shape that reads differently as a request than as an
 * answer (defaults, transforms, amounts) gets a second entry, `<name>Request`.
 */
class Components {
  private readonly shapes = { input: new Map<string, string>(), output: new Map<string, string>() };

  schema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = toJsonSchema(schema, io) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, definition] of Object.entries($defs ?? {})) this.shapes[io].set(name, JSON.stringify(definition));
    return this.placeholders(rest, io) as JsonSchema;
  }

  /** Refs name the io for now: which component a name becomes is known once every shape is met. */
  private placeholders(value: unknown, io: 'input' | 'output'): unknown {
    if (Array.isArray(value)) return value.map((item) => this.placeholders(item, io));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' && item.startsWith(DEFS_REF) ? `${io}:${item.slice(DEFS_REF.length)}` : this.placeholders(item, io)]),
    );
  }

  private componentName(ref: string): string {
    const [io, name = ''] = ref.split(':');
    const differs = io === 'input' && this.shapes.output.has(name) && this.shapes.output.get(name) !== this.shapes.input.get(name);
    return differs ? `${name}Request` : name;
  }

  /** `value` with its refs to components/schemas, and the components it refers to. */
  resolve<T>(value: T): { value: T; schemas: Record<string, JsonSchema> } {
    const rewrite = (item: unknown): unknown => {
      if (Array.isArray(item)) return item.map(rewrite);
      if (item === null || typeof item !== 'object') return item;
      return Object.fromEntries(
        Object.entries(item).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' && /^(input|output):/.test(inner) ? `#/components/schemas/${this.componentName(inner)}` : rewrite(inner)]),
      );
    };
    const schemas: Record<string, JsonSchema> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [name, definition] of this.shapes[io]) {
        const placeheld = this.placeholders(JSON.parse(definition), io);
        schemas[this.componentName(`${io}:${name}`)] = rewrite(placeheld) as JsonSchema;
      }
    }
    const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
    return { value: rewrite(value) as T, schemas: sorted };
  }
}

interface ObjectJsonSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function parametersOf(op: OperationSpec, components: Components): JsonSchema[] {
  const names = [...op.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const pathSchema = op.params ? (components.schema(op.params, 'input') as ObjectJsonSchema) : {};
  const pathParams = names.map((name) => {
    const schema = pathSchema.properties?.[name];
    if (!schema) throw new Error(`${op.method.toUpperCase()} ${op.path}: no schema for the path parameter ${name}`);
    return { name, in: 'path', required: true, schema };
  });
  return [...pathParams, ...objectParameters(op.query, 'query', components), ...objectParameters(op.headers, 'header', components)];
}

function objectParameters(schema: z.ZodType | undefined, location: 'query' | 'header', components: Components): JsonSchema[] {
  if (!schema) return [];
  const object = components.schema(schema, 'input') as ObjectJsonSchema;
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: object.required?.includes(name) === true,
    schema: property,
  }));
}

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
  license: { name: string; identifier?: string };
}

/** `servers`: where the document's paths are served, the local default first. */
export function openApiDocument(info: DocumentInfo, servers: { url: string; description: string }[], securitySchemes: Record<string, object>, operations: OperationSpec[]) {
  const ids = operations.map((op) => op.id);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) throw new Error(`operationIds must be unique: ${repeated.join(', ')}`);
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const parameters = parametersOf(op, components);
    paths[path] ??= {};
    paths[path][op.method] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      // An empty list says "no credentials", where an absent one would inherit a global requirement.
      security: op.security ?? [],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: op.bodyOptional !== true, content: { 'application/json': { schema: components.schema(op.body, 'input') } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema || response.contentType
              ? { content: { [response.contentType ?? 'application/json']: response.schema ? { schema: components.schema(response.schema, 'output') } : {} } }
              : {}),
            ...(response.links ? { links: response.links } : {}),
          },
        ]),
      ),
    };
  }
  const resolved = components.resolve(paths);
  return { openapi: '3.1.0', info, servers, components: { schemas: resolved.schemas, securitySchemes }, paths: resolved.value };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
