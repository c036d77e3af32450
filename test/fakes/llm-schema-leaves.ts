// A reply's value walked alongside the JSON Schema it answers (the request's response_format), each
// leaf classified for what it is, so that the misbehaving model (llm-misbehave.ts) changes what a real
// model gets wrong: an enum value, a handle or id of something the prompt gave, a URL, a file name, a
// quote, or free text it leaves alone.
import type { JsonSchema as InstanceSchema } from "./json-schema-instance";

/** The JSON Schema shape walked here: json-schema-instance.ts's, with the descriptions that name ids. */
export type JsonSchema = InstanceSchema & { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema | JsonSchema[] };

export interface Leaf {
  value: unknown;
  /** The leaf's own schema ($ref and anyOf/oneOf resolved; {} when unknown). */
  schema: JsonSchema;
  /** The property the leaf is (or whose array holds it): "id", "url", "datasetFilenames"… */
  key: string;
  /** Its position in the nearest enclosing array (of itself or of the object holding it), else null. */
  position: number | null;
}

function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  for (let depth = 0; schema.$ref && depth < 20; depth++) {
    const name = schema.$ref.replace(/^#\/(\$defs|definitions)\//, "");
    schema = root.$defs?.[name] ?? root.definitions?.[name] ?? {};
  }
  return schema;
}

const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The variant of an anyOf/oneOf the value is an instance of: for objects, the one whose const and enum properties it matches. */
function variantFor(value: unknown, schema: JsonSchema, root: JsonSchema): JsonSchema {
  const variants = (schema.anyOf ?? schema.oneOf ?? []).map((v) => deref(v, root));
  if (variants.length === 0) return schema;
  const type = jsonType(value);
  const fits = (v: JsonSchema) => {
    const types = typesOf(v);
    return types.length === 0 || types.includes(type) || (type === "integer" && types.includes("number"));
  };
  const matches = (v: JsonSchema) => {
    if (type !== "object" || !v.properties) return true;
    const record = value as Record<string, unknown>;
    return Object.entries(v.properties).every(([k, p]) => {
      const options = p.enum ?? (p.const !== undefined ? [p.const] : undefined);
      return !options || !(k in record) || options.includes(record[k]);
    });
  };
  return variants.find((v) => fits(v) && matches(v)) ?? variants.find(fits) ?? variants[0];
}

/** The value with every leaf (string, number, boolean, null) replaced by `visit`'s result; arrays and objects rebuilt. */
export function mapLeaves(value: unknown, schema: JsonSchema, visit: (leaf: Leaf) => unknown, root: JsonSchema = schema, key = "", position: number | null = null): unknown {
  let s = deref(schema, root);
  s = variantFor(value, s, root);
  if (s.allOf?.length) s = Object.assign({}, ...s.allOf.map((part) => deref(part, root)), { allOf: undefined });
  if (Array.isArray(value)) {
    const items = Array.isArray(s.items) ? undefined : s.items;
    return value.map((item, i) => mapLeaves(item, (Array.isArray(s.items) ? s.items[i] : items) ?? {}, visit, root, key, i));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapLeaves(v, s.properties?.[k] ?? {}, visit, root, k, position)]));
  }
  return visit({ value, schema: s, key, position });
}

/** The value with every array replaced by `visit`'s result (its items walked first), given the array's items schema. */
export function mapArrays(value: unknown, schema: JsonSchema, visit: (list: unknown[], items: JsonSchema) => unknown, root: JsonSchema = schema): unknown {
  let s = deref(schema, root);
  s = variantFor(value, s, root);
  if (s.allOf?.length) s = Object.assign({}, ...s.allOf.map((part) => deref(part, root)), { allOf: undefined });
  if (Array.isArray(value)) {
    const items = Array.isArray(s.items) || !s.items ? {} : deref(s.items, root);
    return visit(value.map((item) => mapArrays(item, items, visit, root)), items);
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapArrays(v, s.properties?.[k] ?? {}, visit, root)]));
  }
  return value;
}

// What a leaf is.

export type LeafKind = "enum" | "handle" | "int-id" | "id" | "url" | "file" | "quote" | "text" | "other";

/** A short handle of something that exists, offered as an enum: S3, D1, C12. */
const HANDLE = /^[A-Za-z]{1,3}-?\d+$/;
/** Properties that hold ids: id, key, taskId, evidenceTaskIds, queryId… */
const ID_KEY = /^(id|ids|key)$|[a-z]Ids?$|_ids?$/;
const FILE_NAME = /^[^\s/\\]+\.(csv|tsv|xlsx?|json|ndjson|jsonl|parquet|txt)$/i;

export function leafKind({ value, schema, key }: Pick<Leaf, "value" | "schema" | "key">): LeafKind {
  const options = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (typeof value === "string" && options?.includes(value)) {
    // An enum of things that exist (short handles, or ids such as task keys) against one of judgements ("supported", "LITERATURE").
    const ids = options.every((o) => typeof o === "string" && HANDLE.test(o)) || ID_KEY.test(key) || /\bids?\b/i.test(schema.description ?? "");
    return ids ? "handle" : "enum";
  }
  if (typeof value === "number") {
    return Number.isInteger(value) && (ID_KEY.test(key) || /\bids?\b/i.test(schema.description ?? "")) ? "int-id" : "other";
  }
  if (typeof value !== "string" || value === "") return "other";
  if (/^https?:\/\//i.test(value)) return "url";
  if (/quote/i.test(key)) return "quote";
  if (FILE_NAME.test(value) || /filename/i.test(key)) return "file";
  if (ID_KEY.test(key)) return "id";
  return "text";
}
