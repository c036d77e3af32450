// The OpenAPI description: a valid OpenAPI 3.1 document (the swagger-parser validator), and complete —
// every method of every route file under app/api and app/v1 is described, and nothing is described that
// no route serves. A new route without a description fails here.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { queryRequestSchema } from "../../answer/schema";
import { describedOperations, openApiDocument, UNDESCRIBED } from "./document";
import { fromZod } from "./schema";

const APP = path.resolve(import.meta.dirname, "../../../app");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(full) : e.name === "route.ts" ? [full] : [];
  });
}

/** app/api/research/[id]/route.ts → /api/research/{id}; a catch-all [...path] → {...path}. */
export function templateOf(file: string): string {
  const dir = path.relative(APP, path.dirname(file)).split(path.sep);
  return `/${dir.map((s) => s.replace(/^\[\[?(\.\.\.)?([^\]]+)\]\]?$/, (_, dots: string | undefined, name: string) => `{${dots ?? ""}${name}}`)).join("/")}`;
}

/** The methods a route file implements: every route ends with otherMethods(…the ones it serves). */
function methodsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const served = /(?:openAi)?[oO]therMethods\(([^)]*)\)/.exec(source);
  if (served) return [...served[1].matchAll(/"([A-Z]+)"/g)].map((m) => m[1]);
  // No otherMethods: the exported handlers are the methods (a catch-all exports them all).
  return [...new Set([...source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b|export \{([^}]*)\}/g)].flatMap((m) => (m[1] ? [m[1]] : [...m[2].matchAll(/as (GET|POST|PUT|PATCH|DELETE)\b/g)].map((n) => n[1]))))];
}

const routes = [...routeFiles(path.join(APP, "api")), ...routeFiles(path.join(APP, "v1"))].map((file) => ({ file, template: templateOf(file), methods: methodsOf(file) }));

test("the route files are found, each with its methods", () => {
  assert.ok(routes.length > 50, `${routes.length} route files`);
  for (const r of routes) assert.ok(r.methods.length > 0, `${r.file}: no method found`);
  assert.equal(templateOf(path.join(APP, "api/research/[id]/items/route.ts")), "/api/research/{id}/items");
});

test("every method of every route is described, and nothing else", () => {
  const described = new Set(describedOperations());
  const expected = routes.filter((r) => !(r.template in UNDESCRIBED)).flatMap((r) => r.methods.map((m) => `${m} ${r.template}`));
  const missing = expected.filter((op) => !described.has(op));
  assert.deepEqual(missing, [], `routes without a description (lib/api/openapi/routes/*.ts): ${missing.join(", ")}`);
  const served = new Set(expected);
  const extra = [...described].filter((op) => !served.has(op));
  assert.deepEqual(extra, [], `described but served by no route: ${extra.join(", ")}`);
  for (const undescribed of Object.keys(UNDESCRIBED)) assert.ok(routes.some((r) => r.template === undescribed), `${undescribed} is no longer a route: drop it from UNDESCRIBED`);
});

test("the document is valid OpenAPI 3.1", async () => {
  const doc = openApiDocument();
  assert.equal(doc.openapi, "3.1.0");
  // The validator dereferences in place: it gets a copy.
  await SwaggerParser.validate(structuredClone(doc) as never);
});

test("each operation has a success response, its errors in the API's shape, and the route's own request schema", () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }>; requestBody?: { content: Record<string, { schema: unknown }> }; operationId: string }>> };
  const ids = new Set<string>();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const statuses = Object.keys(op.responses);
      assert.ok(statuses.some((s) => /^2\d\d$/.test(s)), `${method} ${p}: no success response`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} twice`);
      ids.add(op.operationId);
      const errorRef = p.startsWith("/v1/") ? "#/components/responses/OpenAiError" : "#/components/responses/Error";
      for (const s of statuses.filter((s) => /^[45]\d\d$/.test(s))) assert.ok(op.responses[s].$ref?.startsWith(errorRef), `${method} ${p} ${s}: not the error shape of its API`);
      if (p.includes("{") && !p.startsWith("/api/openapi")) assert.ok(statuses.includes("404"), `${method} ${p}: no 404`);
    }
  }
  const query = doc.paths["/api/v1/query"].post.requestBody!.content["application/json"].schema;
  assert.deepEqual(query, fromZod(queryRequestSchema()), "the body schema is the route's zod schema");
  assert.ok(doc.paths["/api/share/{token}"].get.responses["401"] === undefined, "a share link needs no sign-in");
});
