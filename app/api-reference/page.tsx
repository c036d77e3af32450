// /api-reference – the HTTP API's reference, rendered on the server from the same OpenAPI document as
// GET /api/openapi.json (no script, nothing fetched from elsewhere: it works offline).
import type { Metadata } from "next";
import { openApiDocument } from "@/lib/api/openapi/document";
import { SchemaView, typeLabel } from "./schema-view";

export const metadata: Metadata = { title: "API reference – Quarry" };
// The request limits in the schemas are the server's settings (MAX_DEPTH, ANSWER_MAX_BUDGET…).
export const dynamic = "force-dynamic";

type Schema = { [key: string]: unknown };
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema: Schema }> }>;
};
type Doc = {
  info: { title: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, { description: string }> };
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-accent-soft text-accent",
  post: "bg-surface-2 text-fg",
  patch: "bg-warn-soft text-fg",
  delete: "bg-danger-soft text-danger",
};

function Responses({ op, doc }: { op: Operation; doc: Doc }) {
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {Object.entries(op.responses).map(([status, r]) => {
        const shared = r.$ref ? doc.components.responses[r.$ref.split("/").pop()!] : undefined;
        const json = r.content?.["application/json"]?.schema;
        const other = Object.keys(r.content ?? {}).filter((t) => t !== "application/json");
        return (
          <li key={status}>
            <code className={status.startsWith("2") ? "font-semibold" : "text-muted"}>{status}</code> {shared?.description ?? r.description}
            {json && <> → <span className="text-muted">{typeLabel(json)}</span></>}
            {other.length > 0 && <span className="text-muted"> ({other.join(", ")})</span>}
            {json && !json.$ref && <SchemaView schema={json} depth={1} />}
          </li>
        );
      })}
    </ul>
  );
}

function OperationView({ path, method, op, doc }: { path: string; method: string; op: Operation; doc: Doc }) {
  return (
    <article id={op.operationId} className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <header className="flex flex-wrap items-baseline gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
        <code className="font-semibold break-all">{path}</code>
        {op.security?.length === 0 && <span className="text-xs text-muted">no sign-in</span>}
      </header>
      <p>{op.summary}</p>
      {op.description && <p className="text-sm text-muted">{op.description}</p>}
      {op.parameters && op.parameters.length > 0 && (
        <section>
          <h4 className="text-sm font-semibold">Parameters</h4>
          <ul className="flex flex-col gap-1 text-sm">
            {op.parameters.map((p) => (
              <li key={`${p.in}:${p.name}`}>
                <code className="font-semibold">{p.name}</code>
                {p.required && <span className="text-danger" title="required"> *</span>} <span className="text-muted">({p.in}) {typeLabel(p.schema)}</span>
                {p.schema.default !== undefined && <span className="text-muted"> · default {JSON.stringify(p.schema.default)}</span>}
                {p.description && <span> — {p.description}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {op.requestBody && (
        <section>
          <h4 className="text-sm font-semibold">
            Body <span className="font-normal text-muted">{Object.keys(op.requestBody.content).join(" or ")}{op.requestBody.required ? "" : ", optional"}</span>
          </h4>
          {op.requestBody.description && <p className="text-sm text-muted">{op.requestBody.description}</p>}
          <SchemaView schema={Object.values(op.requestBody.content)[0].schema} />
        </section>
      )}
      <section>
        <h4 className="text-sm font-semibold">Responses</h4>
        <Responses op={op} doc={doc} />
      </section>
    </article>
  );
}

export default function ApiReferencePage() {
  const doc = openApiDocument() as unknown as Doc;
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-8 px-4 py-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        {doc.info.description.split("\n\n").map((p, i) => (
          <p key={i} className="text-sm text-muted">{p}</p>
        ))}
        <p className="text-sm">
          The OpenAPI 3.1 document: <a className="text-accent underline" href="/api/openapi.json">/api/openapi.json</a> (load it into Postman, Insomnia, an SDK generator or an agent).
        </p>
        <nav aria-label="Sections" className="flex flex-wrap gap-3 text-sm">
          {doc.tags.map((t) => (
            <a key={t.name} href={`#tag-${t.name.replace(/\W+/g, "-")}`} className="text-accent underline-offset-2 hover:underline">{t.name}</a>
          ))}
          <a href="#schemas" className="text-accent underline-offset-2 hover:underline">Schemas</a>
        </nav>
      </header>
      {doc.tags.map((tag) => (
        <section key={tag.name} id={`tag-${tag.name.replace(/\W+/g, "-")}`} className="flex flex-col gap-4">
          <h2 className="text-xl font-semibold">{tag.name}</h2>
          <p className="text-sm text-muted">{tag.description}</p>
          {operations.filter((o) => o.op.tags.includes(tag.name)).map((o) => (
            <OperationView key={o.op.operationId} {...o} doc={doc} />
          ))}
        </section>
      ))}
      <section id="schemas" className="flex flex-col gap-4">
        <h2 className="text-xl font-semibold">Schemas</h2>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <div key={name} id={`schema-${name}`} className="rounded-lg border border-border p-4">
            <h3 className="font-mono font-semibold">{name}</h3>
            {typeof schema.description === "string" && <p className="text-sm text-muted">{schema.description}</p>}
            <SchemaView schema={schema} />
          </div>
        ))}
      </section>
    </div>
  );
}
