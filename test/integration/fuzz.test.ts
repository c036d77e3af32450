// Fuzz through the real HTTP server: malformed bodies, content types, every HTTP method Node takes,
// query strings and path parameters (NUL characters and year-0 dates included, which PostgreSQL
// refuses) against every API route (found on disk, so a new route is covered at once) and every
// dynamic page, signed in (API token or session) and signed out. Nothing may answer 5xx; every API
// error is JSON { error, code } with a status that matches its code, and the statuses the API
// defines for a case (400, 401, 405, 413, 415) are asserted exactly. Run on both databases, but for the
// 405 checks (routing alone, ~30 s): on SQLite only.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { signInSession } from "../helpers/auth";

const APP_DIR = path.resolve(import.meta.dirname, "../../app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/**
 * Every other method Node's HTTP parser takes (TRACE, PROPFIND, QUERY, …): no route serves one, so
 * each is a 405 with Allow everywhere. CONNECT asks for a tunnel and Node closes the connection.
 */
const UNSERVED_METHODS = http.METHODS.filter((m) => !["OPTIONS", "CONNECT", ...METHODS].includes(m));
const SERVED_ALLOW = "DELETE,GET,HEAD,OPTIONS,PATCH,POST,PUT";
type Who = "token" | "session" | "anon";
const LIMIT = "1 MiB"; // API_MAX_BODY_BYTES's default, which this app runs with
/** The second run of this file, on PostgreSQL: what no database answers is not asked again. */
const SECOND_RUN = process.env.TEST_DATABASE === "postgres";

// What each error type answers with (lib/errors.ts), so that a code and its status cannot disagree.
const STATUS_OF: Record<string, number> = {
  bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, method_not_allowed: 405,
  request_timeout: 408, conflict: 409, payload_too_large: 413, unsupported_media_type: 415, rate_limit: 429,
};

// ---- Routes and pages, from the file system ----

interface ApiRoute {
  template: string; // /api/research/[id]/shares
  source: string;
  /** Methods the route implements (from its otherMethods(...) call); null when it has none. */
  allowed: Method[] | null;
  isPublic: boolean;
  /** The catch-all that answers unknown /api paths with a JSON 404. */
  fallback: boolean;
}

function walk(dir: string, file: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, file, out);
    else if (entry.name === file) out.push(full);
  }
  return out;
}

const templateOf = (file: string) =>
  "/" + path.relative(APP_DIR, path.dirname(file)).split(path.sep).filter((s) => s && !s.startsWith("(")).join("/");

function discoverApiRoutes(): ApiRoute[] {
  return walk(path.join(APP_DIR, "api"), "route.ts").map((file) => {
    const template = templateOf(file);
    const source = fs.readFileSync(file, "utf8");
    const declared = /otherMethods\(([^)]*)\)/.exec(source);
    const allowed = declared ? [...declared[1].matchAll(/"([A-Z]+)"/g)].map((m) => m[1] as Method) : null;
    if (allowed?.includes("GET")) allowed.push("HEAD");
    return {
      template,
      source,
      allowed,
      // The paths lib/auth/proxy-auth.ts lets through signed out.
      isPublic: /^\/api\/(auth|share|config\/status|openapi\.json)(\/|$)/.test(template),
      fallback: template === "/api/[...path]",
    };
  });
}

const dynamicPages = () => walk(APP_DIR, "page.tsx").map(templateOf).filter((t) => t.includes("["));

/** Fills every [param] and [...param] of a template with `value` (or a per-name value). */
function fill(template: string, value: string | ((name: string) => string)): string {
  return template.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => (typeof value === "string" ? value : value(name)));
}

// ---- Inputs ----

/** Path parameters that cannot be percent-decoded, or hold a NUL (no id can): 400 wherever they appear. */
const MALFORMED_IDS = ["%ff", "%", "%e0%a4%a", "%ED%A0%80", "%C0%AF", "abc%zz", "%ff.png", "x%2", "%00", "a%00b", "%00.png"];
/** Decodable but odd path parameters: any 4xx or a normal answer, never 5xx. */
const ODD_IDS = [
  "..%2f", "..%2F..%2F..%2Fetc%2Fpasswd", "x".repeat(4_000), "%F0%9F%98%80", "%C3%BCber", "%20", "null", "-1",
  "0", "'%20OR%201=1--", "%3Cscript%3E", "%EF%BF%BF",
];

/** Text no database can store as given: lone surrogates (SQLite), NUL characters (PostgreSQL). */
const UNSTORABLE = ["a \ud800 b", "\udc00", "ends \ud83d", "\ude00 starts", "\ud800\ud800", "a\u0000b", "\u0000", "ends\u0000"];

type JunkKind = "empty" | "syntax" | "encoding" | "not_object" | "object" | "too_large" | "media_type";
interface Junk {
  name: string;
  kind: JunkKind;
  body: () => BodyInit | null;
  type: string | null;
}

const JSON_TYPE = "application/json";
const bytes = (s: string) => new TextEncoder().encode(s);
const JUNK: Junk[] = [
  { name: "no body", kind: "empty", body: () => null, type: null },
  { name: "whitespace", kind: "empty", body: () => " \n\t ", type: JSON_TYPE },
  { name: "truncated", kind: "syntax", body: () => '{"a":', type: JSON_TYPE },
  { name: "single quotes", kind: "syntax", body: () => "{'a': 1}", type: JSON_TYPE },
  { name: "trailing comma", kind: "syntax", body: () => '{"a":1,}', type: JSON_TYPE },
  // RFC 8259 lets a parser ignore a byte-order mark; this one does.
  { name: "byte-order mark", kind: "object", body: () => "\ufeff{}", type: JSON_TYPE },
  { name: "NaN", kind: "syntax", body: () => '{"a": NaN}', type: JSON_TYPE },
  { name: "comment", kind: "syntax", body: () => "{/* x */}", type: JSON_TYPE },
  { name: "invalid UTF-8", kind: "encoding", body: () => new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), type: JSON_TYPE },
  { name: "null", kind: "not_object", body: () => "null", type: JSON_TYPE },
  { name: "array", kind: "not_object", body: () => "[]", type: JSON_TYPE },
  { name: "number", kind: "not_object", body: () => "-1e999", type: JSON_TYPE },
  { name: "string", kind: "not_object", body: () => '"\\ud800"', type: JSON_TYPE },
  { name: "boolean", kind: "not_object", body: () => "true", type: JSON_TYPE },
  { name: "array of objects", kind: "not_object", body: () => "[{}]", type: JSON_TYPE },
  { name: "deep arrays", kind: "not_object", body: () => "[".repeat(100_000) + "]".repeat(100_000), type: JSON_TYPE },
  { name: "deep objects", kind: "object", body: () => '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000), type: JSON_TYPE },
  { name: "prototype keys", kind: "object", body: () => '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}', type: JSON_TYPE },
  { name: "lone-surrogate key", kind: "object", body: () => '{"\\ud800": "\\udfff"}', type: JSON_TYPE },
  { name: "huge string under the limit", kind: "object", body: () => JSON.stringify({ x: "a".repeat(900_000) }), type: JSON_TYPE },
  { name: "20,000 keys", kind: "object", body: () => JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))), type: JSON_TYPE },
  { name: "just over the limit", kind: "too_large", body: () => JSON.stringify({ x: "a".repeat(1024 * 1024) }), type: JSON_TYPE },
  {
    name: "3 MiB streamed without Content-Length",
    kind: "too_large",
    type: JSON_TYPE,
    body: () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 48) return controller.close();
          controller.enqueue(bytes(sent++ === 0 ? '{"x":"' + "a".repeat(65_530) : "a".repeat(65_536)));
        },
      });
    },
  },
  { name: "text/plain", kind: "media_type", body: () => '{"a":1}', type: "text/plain;charset=UTF-8" },
  { name: "form", kind: "media_type", body: () => "a=1&b=2", type: "application/x-www-form-urlencoded" },
  { name: "multipart", kind: "media_type", body: () => "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n", type: "multipart/form-data; boundary=x" },
  { name: "xml", kind: "media_type", body: () => "<a/>", type: "application/xml" },
  { name: "JSON in Latin-1", kind: "media_type", body: () => '{"a":1}', type: "application/json; charset=iso-8859-1" },
  { name: "no Content-Type", kind: "media_type", body: () => bytes('{"a":1}'), type: null },
];

/** A few bodies for methods a route does not implement: the method decides (405), not the body. */
const WRONG_METHOD_BODIES = JUNK.filter((j) => ["no body", "truncated", "array", "lone-surrogate key", "just over the limit", "text/plain", "no Content-Type"].includes(j.name));

const QUERY_JUNK = [
  "?limit=abc", "?limit=-1", "?limit=1e309", "?limit=0x10", "?status=%ff", "?status=bogus", `?q=${"x".repeat(5_000)}`,
  "?q=%ED%A0%80", "?cursor=%ff%fe", "?a=1&a=2&a=3", "?%ff=1", "?__proto__[x]=1", "?limit[]=1",
  "?before=0000-01-01T00:00:00Z", "?before=0000-12-31T23:59:59.999Z", "?before=-000001-01-01T00:00:00Z",
];

/** A NUL in a query parameter (its value or its name): a 400 naming it, signed in or not. */
const NUL_QUERIES: [query: string, field: string | undefined][] = [["?q=%00", "q"], ["?cursor=a%00b", "cursor"], ["?limit=1&status=%00", "status"], ["?%00=1", undefined]];

// ---- Bodies of the routes that parse one: a valid base and invalid values per field ----

interface BodySpec {
  who: Who;
  optional: boolean;
  /** The route takes multipart/form-data too (uploads): a form without the required fields is a 400, not a 415. */
  multipart?: boolean;
  base: () => Record<string, unknown>;
  invalid: Record<string, unknown[]>;
}

const NOT_STRINGS = [42, null, true, [], {}];
const asList = (values: unknown[]) => values.map((v) => [v]);
const BAD_POSITIVE = [0, -1, 1.5, 1e308, -1e308, "1", null, true, [], {}, [1]];

let ids: { draft: string; research: string; shareToken: string };

const BODY_SPECS: Record<string, BodySpec> = {
  "POST /api/research/questions": {
    who: "token",
    optional: false,
    base: () => ({ initial_prompt: "Heat pumps in cold climates", num_questions: 2 }),
    invalid: {
      initial_prompt: [...NOT_STRINGS, "", "   ", "x".repeat(10_001), ...UNSTORABLE],
      num_questions: [...BAD_POSITIVE, 11],
    },
  },
  "POST /api/research/start": {
    who: "token",
    optional: false,
    base: () => ({ research_id: ids.draft, initial_prompt: "Heat pumps", followup_questions: ["Why?"], followup_answers: ["Because"], depth: 1, breadth: 1 }),
    invalid: {
      research_id: [...NOT_STRINGS, "", "  ", ...UNSTORABLE],
      initial_prompt: [...NOT_STRINGS, "", "x".repeat(10_001), ...UNSTORABLE],
      followup_questions: ["a list?", 42, {}, ...asList([...NOT_STRINGS, "x".repeat(5_001), ...UNSTORABLE])],
      followup_answers: [undefined, "a list?", 42, {}, ...asList([...NOT_STRINGS, "x".repeat(5_001), ...UNSTORABLE])],
      depth: [...BAD_POSITIVE, 6],
      breadth: [...BAD_POSITIVE, 11],
    },
  },
  "POST /api/v1/query": {
    who: "token",
    optional: false,
    base: () => ({ q: "What is 1+1=?" }),
    invalid: {
      q: [...NOT_STRINGS, "", "   ", "x".repeat(10_001), ...UNSTORABLE],
      budget: [...BAD_POSITIVE, 1_000_001],
      maxBadAttempt: [...BAD_POSITIVE, 11],
      requestId: [...NOT_STRINGS, "", "a b", "x".repeat(101), ...UNSTORABLE],
    },
  },
  // A browser session changes its password (API tokens get 403 after the body is read).
  "POST /api/account/password": {
    who: "session",
    optional: false,
    base: () => ({ currentPassword: "not-the-password", newPassword: "a-new-password" }),
    invalid: {
      currentPassword: [undefined, ...NOT_STRINGS, "", "x".repeat(1025), ...UNSTORABLE],
      newPassword: [undefined, ...NOT_STRINGS, "short", "x".repeat(73), ...UNSTORABLE],
    },
  },
  // API tokens cannot mint tokens (403 before the body is read): a browser session can.
  "POST /api/tokens": {
    who: "session",
    optional: false,
    base: () => ({ name: "fuzz", days: 7 }),
    invalid: {
      name: [...NOT_STRINGS, "", "   ", "x".repeat(101), ...UNSTORABLE],
      days: ["abc", -1, 0, 1.5, 1e9, "1e999", {}, [1, 2], true, false, ""],
    },
  },
  "POST /api/research/[id]/follow-up": {
    who: "token",
    optional: false,
    base: () => ({ question: "Deeper?", depth: 1, breadth: 1 }),
    invalid: {
      question: [undefined, ...NOT_STRINGS, "", "   ", "x".repeat(10_001), ...UNSTORABLE],
      query_id: [...NOT_STRINGS, "", "  ", ...UNSTORABLE],
      depth: [...BAD_POSITIVE, 6],
      breadth: [...BAD_POSITIVE, 11],
    },
  },
  "POST /api/research/[id]/rerun": {
    who: "token",
    optional: true,
    base: () => ({ depth: 1, breadth: 1 }),
    invalid: { depth: [...BAD_POSITIVE, 6], breadth: [...BAD_POSITIVE, 11] },
  },
  "POST /api/collections": {
    who: "token",
    optional: false,
    base: () => ({ name: "Fuzz collection" }),
    invalid: { name: [undefined, ...NOT_STRINGS, "", "   ", "x".repeat(101), ...UNSTORABLE] },
  },
  "PATCH /api/collections/[id]": {
    who: "token",
    optional: false,
    base: () => ({ name: "Renamed" }),
    invalid: { name: [undefined, ...NOT_STRINGS, "", "   ", "x".repeat(101), ...UNSTORABLE] },
  },
  "POST /api/deep-research/start": {
    who: "token",
    optional: false,
    multipart: true,
    base: () => ({ message: "How do heat pumps cope with cold?" }),
    invalid: {
      message: [undefined, ...NOT_STRINGS, "", "   ", "x".repeat(20_001), ...UNSTORABLE],
      conversationId: [...NOT_STRINGS, "", "  ", "x".repeat(101), ...UNSTORABLE],
      researchMode: ["bogus", 42, null, [], {}],
      clarificationSessionId: [...NOT_STRINGS, "", "  ", ...UNSTORABLE],
    },
  },
  "POST /api/clarification/generate-questions": {
    who: "token",
    optional: false,
    base: () => ({ query: "Heat pumps in cold climates" }),
    invalid: {
      query: [undefined, ...NOT_STRINGS, "", "   ", "x".repeat(20_001), ...UNSTORABLE],
      datasets: ["a list?", 42, {}, ...asList([42, null, "x".repeat(501), ...UNSTORABLE])],
    },
  },
  "POST /api/clarification/submit-answers": {
    who: "token",
    optional: false,
    base: () => ({ sessionId: "fuzz-session", answers: [{ questionIndex: 0, answer: "Europe" }] }),
    invalid: {
      sessionId: [undefined, ...NOT_STRINGS, "", "  ", "x".repeat(101), ...UNSTORABLE],
      answers: [undefined, "a list?", 42, {}, [], [{ questionIndex: -1, answer: "a" }], [{ questionIndex: 0, answer: 42 }], [{ questionIndex: 0, answer: "\ud800" }], [{ questionIndex: 0, answer: "a\u0000" }]],
    },
  },
  "POST /api/clarification/plan-feedback": {
    who: "token",
    optional: false,
    base: () => ({ sessionId: "fuzz-session", approved: true }),
    invalid: {
      sessionId: [undefined, ...NOT_STRINGS, "", "  ", ...UNSTORABLE],
      approved: [undefined, "yes", 1, null, [], {}],
      feedback: [...NOT_STRINGS, "x".repeat(5_001), ...UNSTORABLE],
    },
  },
  "POST /api/research/[id]/shares": {
    who: "token",
    optional: true,
    base: () => ({ expiresInDays: 7 }),
    invalid: { expiresInDays: ["abc", -1, 0, 1.5, 3_651, 1e308, {}, [1, 2], true, false, ""] },
  },
  "POST /api/deep-research/conversations/[id]/shares": {
    who: "token",
    optional: true,
    base: () => ({ expiresInDays: 7 }),
    invalid: { expiresInDays: ["abc", -1, 0, 1.5, 3_651, 1e308, {}, [1, 2], true, false, ""] },
  },
};

// ---- Sending and checking ----

let fakes: Fakes;
let app: TestApp;
let cookie: string;
const counts = new Map<string, number>();

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** fetch refuses TRACE and TRACK: the methods no route serves go out through node:http, without a body. */
function sendRaw(method: string, pathname: string, headers: Headers): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${pathname}`, { method, headers: Object.fromEntries(headers), timeout: 60_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders.set(name, String(value));
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text });
      });
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 60 s")));
    req.on("error", reject);
    req.end();
  });
}

async function send(method: Method | string, pathname: string, who: Who, junk?: Pick<Junk, "body" | "type">): Promise<Answer> {
  const headers = new Headers();
  if (who === "token") headers.set("authorization", `Bearer ${app.user.token}`);
  if (who === "session") {
    headers.set("cookie", cookie);
    headers.set("origin", app.url);
  }
  if (!(METHODS as readonly string[]).includes(method)) return sendRaw(method, pathname, headers);
  const body = method === "GET" || method === "HEAD" ? null : (junk?.body() ?? null);
  if (junk?.type && body !== null) headers.set("content-type", junk.type);
  const init: RequestInit & { duplex?: "half" } = { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(60_000) };
  if (body instanceof ReadableStream) init.duplex = "half";
  const res = await fetch(`${app.url}${pathname}`, init);
  // A live progress stream never ends by itself: its status and headers are the answer.
  const streaming = /event-stream/.test(res.headers.get("content-type") ?? "") || res.headers.has("x-vercel-ai-ui-message-stream");
  const text = streaming ? (await res.body?.cancel(), "") : await res.text();
  return { status: res.status, headers: res.headers, text };
}

interface Expect {
  status?: number | number[];
  code?: RegExp;
  message?: RegExp;
  field?: string;
  /** Auth.js's own endpoints answer in their own shapes (redirects, HTML): only "no 5xx" holds there. */
  anyShape?: boolean;
}

/** Sends one fuzz request and returns what is wrong with the answer (nothing when it is right). */
async function probe(
  problems: string[],
  family: string,
  method: Method | string,
  pathname: string,
  who: Who,
  expect: Expect = {},
  junk?: Junk,
): Promise<Answer | undefined> {
  counts.set(family, (counts.get(family) ?? 0) + 1);
  const what = `${method} ${pathname.slice(0, 120)} as ${who}${junk ? ` with ${junk.name}` : ""}`;
  let a: Answer;
  try {
    a = await send(method, pathname, who, junk);
  } catch (error) {
    problems.push(`${what}: request failed: ${String(error)}`);
    return undefined;
  }
  const fail = (why: string) => problems.push(`${what} → ${a.status} ${a.text.slice(0, 160)}: ${why}`);
  if (a.status >= 500) return void fail("a 5xx");
  const wanted = expect.status === undefined ? undefined : [expect.status].flat();
  if (wanted && !wanted.includes(a.status)) return void fail(`expected ${wanted.join(" or ")}`);
  if (a.status < 400 || method === "HEAD" || expect.anyShape) return a;
  if (!/^application\/json/.test(a.headers.get("content-type") ?? "")) return void fail("an error that is not JSON");
  let json: { error?: unknown; code?: unknown; field?: unknown };
  try {
    json = JSON.parse(a.text);
  } catch {
    return void fail("unparseable JSON");
  }
  if (typeof json.error !== "string" || !json.error || typeof json.code !== "string") return void fail("not { error, code }");
  if (/\n\s+at /.test(json.error)) return void fail("a stack trace");
  const type = json.code.split(":")[0];
  if (STATUS_OF[type] !== a.status) return void fail(`code ${json.code} with status ${a.status}`);
  if (a.status === 405 && !a.headers.get("allow")) return void fail("405 without Allow");
  if (expect.code && !expect.code.test(json.code)) return void fail(`code ${json.code}, expected ${expect.code}`);
  if (expect.message && !expect.message.test(json.error)) return void fail(`message does not match ${expect.message}`);
  if (expect.field !== undefined && json.field !== expect.field) return void fail(`field ${String(json.field)}, expected ${expect.field}`);
  return a;
}

function report(problems: string[]): void {
  assert.deepEqual(problems.slice(0, 25), [], `${problems.length} bad answers`);
}

// ---- Setup ----

const routes = discoverApiRoutes();

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "fuzz", env: { ...fakes.env, MAX_QUESTIONS: "10", MAX_DEPTH: "5", MAX_BREADTH: "10" } });
  cookie = await signInSession(app.url, app.user.email, app.user.password);
  const draft = await app.db.research.create({ data: { userId: app.user.id, initialPrompt: "Fuzz draft", followupQuestions: JSON.stringify(["Why?"]) } });
  const research = await app.db.research.create({ data: { userId: app.user.id, initialPrompt: "Fuzz target", followupQuestions: "[]" } });
  const share = await send("POST", `/api/research/${research.id}/shares`, "token", { body: () => "{}", type: JSON_TYPE });
  assert.equal(share.status, 201, share.text);
  ids = { draft: draft.id, research: research.id, shareToken: (JSON.parse(share.text) as { token: string }).token };
});

after(async () => {
  await app?.stop();
  await fakes?.stop();
});

/** A real object for each path parameter where one exists, so that requests reach the route's own checks. */
const sample = (name: string) =>
  ({ id: ids.research, token: ids.shareToken, nextauth: "callback/credentials", path: "no-such-endpoint" })[name] ?? "fuzz-id";

/** What the route answers a caller who passed the proxy's sign-in check, for `method`. */
/**
 * A declared length over the path's limit is a 413 on the HTTP server before anything else looks at
 * the request (lib/api/body-guard.ts): whoever asks, with whatever method. The upload routes take more.
 */
const UPLOAD_ROUTES = new Set(["/api/collections/[id]/documents", "/api/deep-research/start"]);
const refusedEarly = (template: string, junk: Junk) => junk.kind === "too_large" && typeof junk.body() === "string" && !UPLOAD_ROUTES.has(template);
const EARLY_413: Expect = { status: 413, code: /^payload_too_large:body$/, message: new RegExp(LIMIT) };

function methodExpect(route: ApiRoute, method: Method): Expect {
  if (route.fallback) return { status: 404, code: /^not_found:api$/ };
  if (!route.allowed!.includes(method)) return { status: 405, code: /^method_not_allowed:/ };
  return { anyShape: route.template.startsWith("/api/auth/") };
}

// ---- Tests ----

describe("fuzz: every API route", () => {
  test("every route declares its methods with otherMethods(), and every body it parses is described here", () => {
    for (const route of routes) {
      if (route.fallback) continue;
      assert.ok(route.allowed, `${route.template}: end the route with \`export const { … } = otherMethods(…)\` so that other methods get a JSON 405`);
      if (/parseBody\(/.test(route.source)) {
        assert.ok(Object.keys(BODY_SPECS).some((k) => k.endsWith(` ${route.template}`)), `${route.template} parses a body: describe it in BODY_SPECS`);
      }
    }
    assert.ok(routes.length >= 17, `found only ${routes.length} routes`);
  });

  for (const route of routes) {
    const params = /\[/.test(route.template);

    if (params) test(`${route.template}: malformed and odd path parameters`, async () => {
      const problems: string[] = [];
      for (const id of MALFORMED_IDS) {
        for (const method of METHODS) {
          for (const who of ["token", "anon"] as const) {
            await probe(problems, route.template, method, fill(route.template, id), who, { status: 400, code: /^bad_request:path$/ });
          }
        }
      }
      for (const id of ODD_IDS) {
        for (const method of METHODS) {
          await probe(problems, route.template, method, fill(route.template, id), "token", methodExpect(route, method));
          const signedOut = route.isPublic ? methodExpect(route, method) : { status: 401, code: /^unauthorized:auth$/ };
          await probe(problems, route.template, method, fill(route.template, id), "anon", signedOut);
        }
      }
      report(problems);
    });

    if (!route.fallback && !SECOND_RUN) test(`${route.template}: methods it does not implement get 405 { error, code } with Allow`, async () => {
      const problems: string[] = [];
      const pathname = fill(route.template, "fuzz-id");
      for (const method of METHODS.filter((m) => !route.allowed!.includes(m))) {
        for (const junk of method === "GET" || method === "HEAD" ? [undefined] : WRONG_METHOD_BODIES) {
          for (const who of ["token", "anon"] as const) {
            const expect = junk && refusedEarly(route.template, junk) ? EARLY_413 : who === "anon" && !route.isPublic ? { status: 401 } : { status: 405, code: /^method_not_allowed:api$/ };
            const a = await probe(problems, route.template, method, pathname, who, expect, junk);
            if (a?.status === 405) {
              const allow = (a.headers.get("allow") ?? "").split(/,\s*/).sort();
              const expected = [...route.allowed!, "OPTIONS"].sort();
              if (allow.join() !== expected.join()) problems.push(`${method} ${pathname}: Allow "${allow}" ≠ "${expected}"`);
            }
          }
        }
      }
      const options = await send("OPTIONS" as Method, pathname, "token");
      assert.equal(options.status, 204);
      assert.deepEqual((options.headers.get("allow") ?? "").split(/,\s*/).sort(), [...route.allowed!, "OPTIONS"].sort(), "OPTIONS lists what the route implements");
      report(problems);
    });

    if (!SECOND_RUN) test(`${route.template}: methods no route serves (TRACE, PROPFIND, …) get 405 { error, code } with Allow`, async () => {
      const problems: string[] = [];
      const pathname = fill(route.template, sample);
      for (const method of UNSERVED_METHODS) {
        for (const who of ["token", "anon"] as const) {
          const a = await probe(problems, route.template, method, pathname, who, { status: 405, code: /^method_not_allowed:api$/ });
          const allow = (a?.headers.get("allow") ?? "").split(/,\s*/).sort().join();
          if (a?.status === 405 && allow !== SERVED_ALLOW) problems.push(`${method} ${pathname}: Allow "${allow}"`);
        }
      }
      report(problems);
    });

    test(`${route.template}: malformed bodies and content types`, async () => {
      const problems: string[] = [];
      const bodyMethods = route.fallback ? (["POST", "PUT", "PATCH", "DELETE"] as Method[]) : route.allowed!.filter((m) => !["GET", "HEAD"].includes(m));
      for (const method of bodyMethods) {
        const spec = BODY_SPECS[`${method} ${route.template}`];
        // Never delete the objects the other requests need.
        const pathname = fill(route.template, method === "DELETE" ? "fuzz-id" : sample);
        for (const junk of JUNK) {
          let expect: Expect = methodExpect(route, method);
          if (spec) {
            expect = {
              empty: spec.optional ? {} : { status: 400, message: /empty/ },
              syntax: { status: 400, code: /^bad_request:/ },
              encoding: { status: 400, message: /UTF-8/ },
              not_object: { status: 400, message: /JSON object/ },
              object: spec.optional ? {} : { status: 400, code: /^bad_request:/ },
              too_large: { status: 413, code: /^payload_too_large:body$/, message: new RegExp(LIMIT) },
              media_type: { status: 415, code: /^unsupported_media_type:body$/ },
            }[junk.kind];
            if (spec.multipart && junk.name === "multipart") expect = { status: 400, code: /^bad_request:/ };
          }
          const early = refusedEarly(route.template, junk);
          await probe(problems, route.template, method, pathname, spec?.who ?? "token", early ? EARLY_413 : expect, junk);
          const signedOut = route.isPublic ? { anyShape: route.template.startsWith("/api/auth/") } : { status: 401 };
          await probe(problems, route.template, method, pathname, "anon", early ? EARLY_413 : signedOut, junk);
        }
      }
      report(problems);
    });

    if (route.allowed?.includes("GET")) test(`${route.template}: junk query strings`, async () => {
      const problems: string[] = [];
      for (const query of QUERY_JUNK) {
        const pathname = fill(route.template, sample) + query;
        await probe(problems, route.template, "GET", pathname, "token", { anyShape: route.template.startsWith("/api/auth/") });
        await probe(problems, route.template, "GET", pathname, "anon", route.isPublic ? { anyShape: true } : { status: 401 });
      }
      report(problems);
    });
  }

  for (const [key, spec] of Object.entries(BODY_SPECS)) {
    test(`${key}: a bad value in each field is a 400 naming it (lone surrogates and NUL included)`, async () => {
      const [method, template] = key.split(" ") as [Method, string];
      const problems: string[] = [];
      for (const [field, values] of Object.entries(spec.invalid)) {
        for (const value of values) {
          const body = { ...spec.base(), [field]: value };
          const text = JSON.stringify(body);
          const strings = (typeof value === "string" ? [value] : Array.isArray(value) ? value : []).filter((v) => typeof v === "string");
          const message = strings.some((v) => !v.isWellFormed()) ? /well-formed Unicode/ : strings.some((v) => v.includes("\u0000")) ? /NUL characters/ : undefined;
          await probe(
            problems,
            template,
            method,
            fill(template, sample),
            spec.who,
            { status: 400, code: /^bad_request:/, field, ...(message ? { message } : {}) },
            { name: `${field}=${String(JSON.stringify(value)).slice(0, 40)}`, kind: "object", body: () => text, type: JSON_TYPE },
          );
        }
      }
      report(problems);
      // Nothing with a lone surrogate or a NUL was stored.
      const prompts = await app.db.research.findMany({ select: { initialPrompt: true } });
      assert.ok(prompts.every((r) => r.initialPrompt.isWellFormed() && !r.initialPrompt.includes("\u0000")));
    });
  }

  test("a NUL in a query parameter is a 400 naming it, on every route", async () => {
    const problems: string[] = [];
    for (const route of routes) {
      for (const [query, field] of NUL_QUERIES) {
        for (const who of ["token", "anon"] as const) {
          await probe(problems, route.template, "GET", fill(route.template, sample) + query, who, { status: 400, code: /^bad_request:query$/, message: /NUL/, field });
        }
      }
    }
    report(problems);
  });

  test("GET /api/v1/answers: a date the databases cannot hold is a 400 naming before", async () => {
    const problems: string[] = [];
    for (const date of ["0000-01-01T00:00:00Z", "0000-12-31T23:59:59.999Z", "2024-02-30T00:00:00Z"]) {
      await probe(problems, "/api/v1/answers", "GET", `/api/v1/answers?before=${date}`, "token", { status: 400, code: /^bad_request:/, field: "before" });
    }
    await probe(problems, "/api/v1/answers", "GET", "/api/v1/answers?before=0001-01-01T00:00:00Z", "token", { status: 200 });
    report(problems);
  });

  test("unknown /api paths get a JSON 404 (signed in) or 401 (signed out)", async () => {
    const problems: string[] = [];
    for (const p of ["/api/nope", "/api/research/x/y/z", "/api/tokens/x/y", "/api/%F0%9F%98%80"]) {
      for (const method of METHODS) {
        await probe(problems, "/api/[...path]", method, p, "token", { status: 404, code: /^not_found:api$/ });
        await probe(problems, "/api/[...path]", method, p, "anon", { status: 401 });
      }
    }
    report(problems);
  });

  // Without the 405 checks (the second run), a GET-only route without parameters gets 40.
  const least = SECOND_RUN ? 40 : 80;
  test(`every API route got at least ${least} malformed requests`, (t) => {
    t.diagnostic(`${[...counts.values()].reduce((a, b) => a + b, 0)} requests; fewest for one route: ${Math.min(...routes.map((r) => counts.get(r.template) ?? 0))}`);
    for (const route of routes) {
      assert.ok((counts.get(route.template) ?? 0) >= least, `${route.template}: only ${counts.get(route.template) ?? 0} requests`);
    }
  });
});

describe("fuzz: pages with path parameters", () => {
  test("a malformed parameter is a 400 page, an odd one never a 5xx", async () => {
    const pages = dynamicPages();
    assert.ok(pages.includes("/share/[token]") && pages.includes("/research/[id]"), pages.join());
    const problems: string[] = [];
    for (const page of pages) {
      for (const who of ["session", "anon"] as const) {
        for (const id of MALFORMED_IDS) {
          const a = await probe(problems, page, "GET", fill(page, id), who, { status: 400, anyShape: true });
          if (a && !/^text\/html/.test(a.headers.get("content-type") ?? "")) problems.push(`${page} ${id}: not an HTML page`);
        }
        for (const id of ODD_IDS) await probe(problems, page, "GET", fill(page, id), who, { anyShape: true });
      }
    }
    report(problems);
  });

  test("a NUL in a query parameter is a 400 page", async () => {
    const problems: string[] = [];
    for (const page of ["/", "/sign-in", ...dynamicPages()]) {
      for (const who of ["session", "anon"] as const) {
        for (const query of ["?draft=%00", "?callbackUrl=%2F%00", "?%00"]) {
          const a = await probe(problems, page, "GET", fill(page, "fuzz-id") + query, who, { status: 400, anyShape: true });
          if (a && !/^text\/html/.test(a.headers.get("content-type") ?? "")) problems.push(`${page}${query}: not an HTML page`);
        }
      }
    }
    report(problems);
  });

  test("methods no route serves get 405 with Allow on pages and the OpenAI-compatible paths too", async () => {
    const problems: string[] = [];
    for (const pathname of ["/", "/sign-in", ...dynamicPages().map((p) => fill(p, "fuzz-id")), "/v1/models", "/v1/chat/completions", "/v1/nope"]) {
      for (const method of UNSERVED_METHODS) {
        const a = await probe(problems, pathname, method, pathname, "anon", { status: 405, anyShape: true });
        const allow = (a?.headers.get("allow") ?? "").split(/,\s*/).sort().join();
        if (a?.status === 405 && allow !== SERVED_ALLOW) problems.push(`${method} ${pathname}: Allow "${allow}"`);
      }
    }
    report(problems);
  });
});
