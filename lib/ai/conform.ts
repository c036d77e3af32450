// Shape tolerance for structured replies, in one place for every agent: a reply that means the right
// thing in a slightly different shape is brought to the JSON Schema the call asked for before it is
// validated. Real models wrap the object in another ({"response": {...}}), answer with the bare list
// for an object that holds only a list ([…] for {"queries": […]}), write an enum value in
// another case or with padding ("Search", " supported "), a number as a string ("3"), a key in another
// case or convention ("exact_quote", "Exact Quote" for "exactQuote"), one object where a list was asked for, or an object or a list sent as a string of JSON
// ("queries": "[{\"query\": …}]", {"response": "{…}"}), null for an empty text or list, or such a key left
// out ("correction": null), or a word for nothing ("sql": "None", "correction": "N/A") where the schema has one. What cannot be brought to the schema is left
// as it is, for validation to report.
import { tryParse } from "./json";
import { resolveEnumValue } from "./resolve";

export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
  description?: string;
  definitions?: Record<string, JsonSchemaNode>;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A key as compared with the schema's: case, underscores, hyphens and spaces aside (snake_case, camelCase, "Title Case"). */
const looseKey = (key: string) => key.toLowerCase().replace(/[\s_-]+/g, "");

function typesOf(schema: JsonSchemaNode): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

/** The text values a schema fixes (its enum's, or its const): the choices a near-miss may name; undefined for a free value. */
function choicesOf(schema: JsonSchemaNode | undefined): string[] | undefined {
  const fixed = schema?.enum ?? (schema?.const !== undefined ? [schema.const] : undefined);
  return fixed?.filter((o): o is string => typeof o === "string");
}

/** Whether the schema is a free text (a string that is no choice). */
const isFreeText = (schema: JsonSchemaNode) => typesOf(schema).includes("string") && !schema.enum && schema.const === undefined;

function deref(schema: JsonSchemaNode, root: JsonSchemaNode): JsonSchemaNode {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/(\$defs|definitions)\//, "");
  return root.$defs?.[name] ?? root.definitions?.[name] ?? schema;
}

/** The reply's value brought to the schema's shape where it plainly means it (see the header). */
export function conform(value: Json, schema: JsonSchemaNode, root: JsonSchemaNode = schema, depth = 0): Json {
  if (depth > 32) return value;
  schema = deref(schema, root);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    if ((value === null || isPlaceholder(value)) && variants.some((v) => typesOf(deref(v, root)).includes("null"))) return null;
    const all = variants.map((v) => deref(v, root));
    const unfolded = isObject(value) ? (unfoldedCall(value, all, root) ?? value) : value;
    const fitting = (isObject(unfolded) ? all.find((v) => discriminated(unfolded, v, root)) : undefined) ?? all.find((v) => fits(unfolded, v)) ?? all.find((v) => !typesOf(v).includes("null"));
    return fitting ? conform(unfolded, fitting, root, depth + 1) : unfolded;
  }
  if (schema.const !== undefined) {
    return typeof schema.const === "string" && value !== schema.const && resolveEnumValue(value, [schema.const]) ? schema.const : value;
  }
  if (schema.enum) {
    const options = choicesOf(schema) ?? [];
    if (options.length && !schema.enum.includes(value)) return resolveEnumValue(value, options) ?? value;
    return value;
  }
  const types = typesOf(schema);
  if (value === null) return emptyOf(schema) ?? null;
  // A word for nothing ("None", "N/A") where the schema has a nothing: null, an empty list, or a text it says may be empty.
  if (isPlaceholder(value)) {
    const none = types.includes("null") ? null : types.includes("array") ? [] : types.includes("string") && mayBeEmpty(schema) ? "" : undefined;
    if (none !== undefined) return none;
  }
  if (value === undefined) return value;
  if ((types.includes("object") || types.includes("array")) && typeof value === "string") {
    const parsed = parsedJson(value);
    if (parsed !== undefined) return conform(parsed, schema, root, depth + 1);
  }
  if (types.includes("object")) return conformObject(value, schema, root, depth);
  if (types.includes("array")) {
    const items = schema.items ? deref(schema.items, root) : undefined;
    const list = Array.isArray(value)
      ? value
      : isObject(value) && items
        ? fits(value, items)
          ? [value]
          : (groupedList(value, items, root) ?? value)
        : typeof value === "string" && items
          ? listFromText(value, items)
          : value;
    return Array.isArray(list) && schema.items ? list.map((item) => conform(item, schema.items as JsonSchemaNode, root, depth + 1)) : list;
  }
  if ((types.includes("integer") || types.includes("number")) && typeof value === "string") {
    const n = Number(value.trim().replace(/,(?=\d{3}\b)/g, ""));
    if (value.trim() !== "" && Number.isFinite(n)) return types.includes("integer") && !types.includes("number") && !Number.isInteger(n) ? value : n;
  }
  // A yes/no as models write it: "true", "Yes", "no", 1 or 0.
  if (types.includes("boolean") && typeof value === "string" && /^\s*(true|false|yes|no)\s*$/i.test(value)) return /^\s*(true|yes)\s*$/i.test(value);
  if (types.includes("boolean") && (value === 1 || value === 0)) return value === 1;
  if (types.includes("string") && (typeof value === "number" || typeof value === "boolean")) return String(value);
  return value;
}

/**
 * Whether an object is this variant of a discriminated union: a property the variant fixes (a const,
 * or an enum) has, up to the resolver's near-misses, one of its values. {"action": "Search"} is the
 * "search" variant, not the first variant with an "action" key.
 */
function discriminated(value: Record<string, Json>, variant: JsonSchemaNode, root: JsonSchemaNode): boolean {
  const loose = new Map(Object.entries(value).map(([k, v]) => [looseKey(k), v]));
  return Object.entries(variant.properties ?? {}).some(([key, prop]) => {
    const p = deref(prop, root);
    const fixed = p.const !== undefined ? [p.const] : p.enum;
    if (!fixed || !(variant.required ?? []).includes(key)) return false;
    const options = choicesOf(p) ?? [];
    const given = loose.get(looseKey(key));
    return given !== undefined && (fixed.includes(given) || (options.length > 0 && resolveEnumValue(given, options) !== undefined));
  });
}

/** Where a tool call keeps its arguments, as models used to calling tools write a choice. */
const ARGUMENTS = /^(?:parameters|arguments|args|params|input)$/i;

/**
 * A choice among variants written as a tool call, unfolded: {"search": {…}} or {"action": "search",
 * "arguments": {…}} (or its arguments as a string of JSON) for {"action": "search", …}. Undefined when the
 * value is no such thing (its discriminator's value, or the one key naming it, is no variant's).
 */
function unfoldedCall(value: Record<string, Json>, variants: JsonSchemaNode[], root: JsonSchemaNode): Record<string, Json> | undefined {
  const keys = Object.keys(value);
  for (const variant of variants) {
    for (const [key, prop] of Object.entries(variant.properties ?? {})) {
      const fixed = deref(prop, root).const;
      if (typeof fixed !== "string" || !(variant.required ?? []).includes(key)) continue;
      const named = (v: Json | string) => (typeof v === "string" || typeof v === "number") && resolveEnumValue(v, [fixed]) !== undefined;
      if (keys.length === 1 && keys[0] !== key && named(keys[0])) {
        const args = argumentsOf(value[keys[0]]);
        if (args) return { [key]: fixed, ...args };
      }
      if (!named(value[key])) continue;
      const wrapper = keys.filter((k) => k !== key && ARGUMENTS.test(k));
      if (wrapper.length !== 1) return undefined;
      const args = argumentsOf(value[wrapper[0]]);
      if (!args) return undefined;
      const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== wrapper[0]));
      return { ...args, ...rest };
    }
  }
  return undefined;
}

/** A call's arguments: an object, or one sent as a string of JSON; undefined for anything else. */
function argumentsOf(inner: Json): Record<string, Json> | undefined {
  const args = typeof inner === "string" ? parsedJson(inner) : inner;
  return isObject(args) ? args : undefined;
}

/** An object or a list sent as a string of JSON, parsed; undefined for any other string. */
function parsedJson(text: string): Json | undefined {
  const value = /^\s*[[{]/.test(text) ? tryParse(text.trim()) : undefined;
  return typeof value === "object" && value !== null ? value : undefined;
}

/** Whether a value is of one of the schema's types (objects: has one of its required keys). */
function fits(value: Json, schema: JsonSchemaNode): boolean {
  const types = typesOf(schema);
  if (types.length === 0) return true;
  if (value === null) return types.includes("null");
  if (Array.isArray(value)) return types.includes("array");
  if (isObject(value)) return types.includes("object") && ownKeys(value, schema).length > 0;
  if (typeof value === "number") return types.includes("number") || types.includes("integer");
  return types.includes(typeof value);
}

/** The object schema's one list property, when no other property is required; else undefined. */
function soleListProperty(schema: JsonSchemaNode, root: JsonSchemaNode): { name: string; items: JsonSchemaNode } | undefined {
  const lists = Object.entries(schema.properties ?? {}).filter(([, p]) => typesOf(deref(p, root)).includes("array"));
  if (lists.length !== 1) return undefined;
  const [name, prop] = lists[0];
  const items = deref(prop, root).items;
  if (!items || (schema.required ?? []).some((r) => r !== name)) return undefined;
  return { name, items };
}

/** The schema's properties the object has, keys compared loosely (looseKey). */
function ownKeys(value: Record<string, Json>, schema: JsonSchemaNode): string[] {
  const keys = new Set(Object.keys(value).map(looseKey));
  return Object.keys(schema.properties ?? {}).filter((k) => keys.has(looseKey(k)));
}

/**
 * A bare string where an object was asked for, as list items ("items": ["fact", "fact"] for
 * [{content, queries}]): the object, when the string can only be one thing in it: its one required
 * free-text property, its other required properties lists (left empty: an item tagged with nothing).
 * An object with a choice to make (an enum, a second text) is not guessed.
 */
function fromText(text: string, schema: JsonSchemaNode, root: JsonSchemaNode): Record<string, Json> | undefined {
  const shape = textShape(schema, root);
  if (!shape) return undefined;
  return { ...Object.fromEntries(shape.lists.map((list) => [list.key, []])), [shape.text]: text };
}

/**
 * An object whose required properties are one free text and lists (an item and its tags): their names,
 * and each list's choices where its elements are choices. Undefined for any other object (a second
 * text, an enum, a number: something a model's bare text cannot say).
 */
function textShape(schema: JsonSchemaNode, root: JsonSchemaNode): { text: string; lists: { key: string; choices?: string[] }[] } | undefined {
  const props = schema.properties ?? {};
  let text: string | undefined;
  const lists: { key: string; choices?: string[] }[] = [];
  for (const key of schema.required ?? []) {
    const prop = deref(props[key] ?? {}, root);
    if (typesOf(prop).includes("array")) lists.push({ key, choices: choicesOf(prop.items ? deref(prop.items, root) : undefined) });
    else if (isFreeText(prop) && text === undefined) text = key;
    else return undefined;
  }
  return text === undefined ? undefined : { text, lists };
}

/** The keywords of a JSON Schema's frame around an instance ({"type": "object", "properties": {…}}). */
const SCHEMA_FRAME = new Set(["$schema", "$id", "type", "title", "description", "properties", "required", "additionalProperties"]);

/**
 * Tagged items written grouped by their tag, as models asked to tag each item write them: {"Q1": ["fact", …],
 * "Q2": […], "other": […]} for [{"content": "fact", "queries": ["Q1"]}, …] — where an item is one free text and
 * one list of choices, and at least one group names a choice (one that names none holds untagged items). An item
 * in two groups is one item with both tags.
 */
function groupedList(value: Record<string, Json>, items: JsonSchemaNode, root: JsonSchemaNode): Json[] | undefined {
  const shape = textShape(items, root);
  const list = shape?.lists.length === 1 ? shape.lists[0] : undefined;
  if (!shape || !list?.choices) return undefined;
  const textKey = shape.text;
  const tag = { key: list.key, options: list.choices };
  const out: Record<string, Json>[] = [];
  let named = 0;
  for (const [group, texts] of Object.entries(value)) {
    const list = typeof texts === "string" ? [texts] : Array.isArray(texts) && texts.every((t) => typeof t === "string") ? (texts as string[]) : undefined;
    if (!list) return undefined;
    const choice = resolveEnumValue(group, tag.options);
    if (choice) named++;
    for (const text of list) {
      const same = out.find((o) => o[textKey] === text);
      const tags = (same?.[tag.key] ?? []) as string[];
      if (same) same[tag.key] = choice && !tags.includes(choice) ? [...tags, choice] : tags;
      else out.push({ [textKey]: text, [tag.key]: choice ? [choice] : [] });
    }
  }
  return named > 0 ? out : undefined;
}

/**
 * A list written as text, as models write a list of one or of a few choices: "heat pumps" for ["heat pumps"];
 * "S1, S3" or "S1 and S3" for ["S1", "S3"] where the items are choices and the pieces name them (a piece
 * that is a lone word naming none stays a piece, as in a list: the caller drops it); "" for []; free texts
 * as a list's lines ("1. …\n2. …", "- …") for those texts. Free text is not split at its commas: it is one item.
 */
function listFromText(text: string, items: JsonSchemaNode): Json {
  if (text.trim() === "") return [];
  const names = choicesOf(items);
  if (names) {
    const pieces = text.split(/\s*(?:[,;&/]|\band\b)\s*/i).filter(Boolean);
    const named = pieces.filter((p) => resolveEnumValue(p, names) !== undefined);
    // Choices, or ids among them that name nothing (dropped later, as in any list of them): not a sentence.
    return named.length > 0 && pieces.every((p) => named.includes(p) || /^\S{1,40}$/.test(p)) ? pieces : text;
  }
  if (!typesOf(items).includes("string")) return text;
  // Lines that are a list's entries ("1. …", "- …"), two or more: the items, as the model listed them.
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const entries = lines.map((l) => LIST_ENTRY.exec(l)?.[1]?.trim());
  if (lines.length >= 2 && entries.every(Boolean)) return entries as string[];
  return [text];
}

/** A line that is a list's entry: a number, a bullet; group 1, its text. */
const LIST_ENTRY = /^(?:\d{1,3}[.)]|[-*•])\s+(.+)$/;

function conformObject(value: Json, schema: JsonSchemaNode, root: JsonSchemaNode, depth: number): Json {
  // One object where the schema's object has a single list property: {"verdicts": [that]} is not
  // guessed. But a wrapper around the wanted object is taken off: {"response": {...}}; and so is the
  // frame of a JSON Schema that models shown the schema write the instance in ({"type": "object",
  // "properties": {…the instance…}}). A schema sent back as it was shown stays what it is: not the instance.
  let object = value;
  if (isObject(object) && ownKeys(object, schema).length === 0 && Object.keys(object).every((k) => SCHEMA_FRAME.has(k)) && isObject(object.properties) && ownKeys(object.properties, schema).length > 0) {
    object = object.properties;
  }
  // Tagged items grouped by tag with no list around them ({"Q1": […], "Q2": […]} for {"items": [...]}).
  const sole = isObject(object) && ownKeys(object, schema).length === 0 ? soleListProperty(schema, root) : undefined;
  const grouped = sole && isObject(object) ? groupedList(object, deref(sole.items, root), root) : undefined;
  if (sole && grouped) object = { [sole.name]: grouped };
  for (let i = 0; i < 2 && isObject(object) && ownKeys(object, schema).length === 0; i++) {
    const inner = Object.values(object).map((v) => (typeof v === "string" ? (parsedJson(v) ?? v) : v));
    if (inner.length !== 1) break;
    if (isObject(inner[0])) object = inner[0];
    else if (Array.isArray(inner[0]) && Object.keys(schema.properties ?? {}).length === 1) {
      // {"items": [...]} for {"queries": [...]}: the lone list is the lone list property.
      object = { [Object.keys(schema.properties ?? {})[0]]: inner[0] };
    } else break;
  }
  if (Array.isArray(object)) {
    // The bare list for an object whose one list property is all it needs: [{…}, {…}] for {"queries": [...]}
    // (small models answer with the list itself). Else one object in a list is that object.
    const list = soleListProperty(schema, root);
    if (list && object.every((item) => fits(item, deref(list.items, root)))) object = { [list.name]: object };
    else if (object.length === 1 && isObject(object[0])) object = object[0];
  }
  if (typeof object === "string") object = fromText(object, schema, root) ?? object;
  if (!isObject(object)) return object;
  const out: Record<string, Json> = {};
  const props = schema.properties ?? {};
  const byLoose = new Map(Object.keys(props).map((k) => [looseKey(k), k]));
  for (const [key, v] of Object.entries(object)) {
    const name = key in props ? key : (byLoose.get(looseKey(key)) ?? key);
    if (name in out && name !== key) continue;
    out[name] = props[name] ? conform(v, props[name], root, depth + 1) : v;
  }
  // A required text or list left out of an object whose every key is the schema's (nothing renamed away):
  // what does not apply, as models leave it out ("quote" of an unsupported verdict) — empty, where the
  // schema says it may be empty, or a text of an object the model did write (a verdict without its
  // "correction"). A list the schema does not say may be empty, or an object with nothing in it, is
  // asked again: "queries" left out is no plan of none.
  if (Object.keys(out).every((k) => k in props)) {
    const written = (schema.required ?? []).some((k) => k in out);
    for (const key of schema.required ?? []) {
      if (key in out || !props[key]) continue;
      const prop = deref(props[key], root);
      const empty = emptyOf(prop);
      if (empty !== undefined && (mayBeEmpty(prop) || (written && typeof empty === "string"))) out[key] = empty;
    }
  }
  return out;
}

/**
 * What models write for nothing where a value does not apply: "None", "N/A", "null", "-", "(none)". Read as
 * nothing only where the schema has a nothing (a null, an empty list, a text it says may be empty): an
 * answer of "None" to a question stays the answer.
 */
const PLACEHOLDER = /^\s*(?:none|null|nil|undefined|n\s*\/\s*a|not applicable|no correction(?: needed)?|-+|—|–|\(none\))\s*\.?\s*$/i;
const isPlaceholder = (value: Json): value is string => typeof value === "string" && PLACEHOLDER.test(value);

/** Whether the schema says the property may be empty ("…; empty when none do"). */
const mayBeEmpty = (schema: JsonSchemaNode) => /\bempty\b/i.test(schema.description ?? "");

/**
 * The empty value of a free text or a list, where the schema takes no null: what a model's null (or
 * a key left out) means there ("correction": null for "no correction"); undefined for anything else
 * (an enum, a number, an object: a value that must be chosen).
 */
function emptyOf(schema: JsonSchemaNode): Json {
  const types = typesOf(schema);
  if (types.includes("null") || schema.anyOf || schema.oneOf || schema.enum || schema.const !== undefined) return undefined;
  if (types.includes("array")) return [];
  if (types.includes("string")) return "";
  return undefined;
}
