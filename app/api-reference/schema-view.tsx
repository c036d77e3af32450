// A JSON Schema as a readable tree for the API reference: each property with its type, constraints,
// default and description; a $ref as a link to the schema's own section on the page.
type Schema = { [key: string]: unknown };

const refName = (ref: string) => ref.replace("#/components/schemas/", "");

/** "string ≤ 10000", "integer 1–5", "one of a, b", "Document[]", "string | null"… */
export function typeLabel(s: Schema): React.ReactNode {
  if (typeof s.$ref === "string") {
    const name = refName(s.$ref);
    return <a href={`#schema-${name}`} className="text-accent underline-offset-2 hover:underline">{name}</a>;
  }
  const variants = (s.anyOf ?? s.oneOf ?? s.allOf) as Schema[] | undefined;
  if (variants) {
    return variants.map((v, i) => (
      <span key={i}>
        {i > 0 && (s.allOf ? " & " : " | ")}
        {typeLabel(v)}
      </span>
    ));
  }
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (s.type === "array") return <>{typeLabel((s.items as Schema) ?? {})}[]</>;
  const type = Array.isArray(s.type) ? s.type.join(" | ") : String(s.type ?? "any");
  const bounds = [
    s.minLength !== undefined && s.maxLength !== undefined ? `${s.minLength}–${s.maxLength} chars` : s.maxLength !== undefined ? `≤ ${s.maxLength} chars` : null,
    s.minimum !== undefined && s.maximum !== undefined ? `${s.minimum}–${s.maximum}` : s.maximum !== undefined ? `≤ ${s.maximum}` : null,
    s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : null,
    s.maxItems !== undefined ? `≤ ${s.maxItems} items` : null,
    typeof s.format === "string" ? s.format : null,
  ].filter(Boolean);
  return bounds.length ? `${type} (${bounds.join(", ")})` : type;
}

function properties(s: Schema): [string, Schema][] {
  if (s.type === "array" && s.items) return properties(s.items as Schema);
  if (Array.isArray(s.allOf)) return (s.allOf as Schema[]).flatMap(properties);
  return Object.entries((s.properties as Record<string, Schema> | undefined) ?? {});
}

export function SchemaView({ schema, depth = 0 }: { schema: Schema; depth?: number }) {
  const props = properties(schema);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  if (props.length === 0) return <p className="text-sm text-muted">{typeLabel(schema)}</p>;
  return (
    <ul className={`flex flex-col gap-1 text-sm ${depth > 0 ? "ml-4 border-l border-border pl-3" : ""}`}>
      {props.map(([name, p]) => (
        <li key={name}>
          <code className="font-semibold">{name}</code>
          {required.has(name) ? <span className="text-danger" title="required"> *</span> : null} <span className="text-muted">{typeLabel(p)}</span>
          {p.default !== undefined && <span className="text-muted"> · default {JSON.stringify(p.default)}</span>}
          {typeof p.description === "string" && <span> — {p.description}</span>}
          {depth < 3 && properties(p).length > 0 && !p.$ref && <SchemaView schema={p} depth={depth + 1} />}
        </li>
      ))}
    </ul>
  );
}
