import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { AppError } from "../errors";
import { text } from "../validation/text";
import { httpStatusOf, toErrorResponse } from "./errors";
import { formatBytes, isJsonContentType, parseBody, parseQuery } from "./body";

const schema = z.object({ name: text().trim().min(1), tags: z.array(text()).optional() });

function post(body: BodyInit | null, contentType: string | null = "application/json", headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/x", {
    method: "POST",
    body,
    headers: { ...(contentType ? { "content-type": contentType } : {}), ...headers },
    // Streams need half-duplex in Node's Request.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function rejects(promise: Promise<unknown>, status: number, code: string, message?: RegExp): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(httpStatusOf(error), status, error.message);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return error;
  }
  assert.fail("expected a rejection");
}

describe("isJsonContentType", () => {
  it("accepts JSON and +json with an optional UTF-8 charset, nothing else", () => {
    for (const ok of ["application/json", "Application/JSON; charset=UTF-8", "application/json;charset=\"utf-8\"", "application/merge-patch+json"]) {
      assert.ok(isJsonContentType(ok), ok);
    }
    for (const bad of [null, "", "text/plain", "text/json", "application/jsonx", "application/json; charset=latin1", "multipart/form-data; boundary=x"]) {
      assert.ok(!isJsonContentType(bad), String(bad));
    }
  });
});

describe("parseBody", () => {
  it("returns the parsed object", async () => {
    assert.deepEqual(await parseBody(post('{"name":" a "}'), schema, "t"), { name: "a" });
  });

  it("413 names the limit, whether the length is declared or only streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(2048) });
    await rejects(parseBody(post(big), schema, "t", { maxBytes: 1024 }), 413, "payload_too_large:body", /limit of 1 KiB \(API_MAX_BODY_BYTES\)/);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode("x".repeat(512)));
        c.close();
      },
    });
    await rejects(parseBody(post(stream), schema, "t", { maxBytes: 1024 }), 413, "payload_too_large:body");
    assert.equal(formatBytes(1024 * 1024), "1 MiB");
    assert.equal(formatBytes(1500), "1500 bytes");
  });

  it("400 for an empty body unless the body is optional", async () => {
    await rejects(parseBody(post(null, null), schema, "t"), 400, "bad_request:t", /empty/);
    await rejects(parseBody(post("  \n", "text/plain"), schema, "t"), 400, "bad_request:t", /empty/);
    assert.deepEqual(await parseBody(post(null, null), z.object({ n: z.number().optional() }), "t", { optional: true }), {});
  });

  it("415 for a body that is not declared as JSON", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", null]) {
      await rejects(parseBody(post('{"name":"a"}', type), schema, "t"), 415, "unsupported_media_type:body");
    }
  });

  it("400 for bytes that are not UTF-8, text that is not JSON, and JSON that is not an object", async () => {
    await rejects(parseBody(post(new Uint8Array([0x7b, 0xff, 0x7d])), schema, "t"), 400, "bad_request:t", /UTF-8/);
    for (const body of ["{", "{'a':1}", "[]", "null", "42", '"name"']) {
      await rejects(parseBody(post(body), schema, "t"), 400, "bad_request:t", /JSON object/);
    }
  });

  it("400 naming the field and its position for a lone surrogate or a NUL", async () => {
    const e1 = await rejects(parseBody(post('{"name":"a \\ud800 b"}'), schema, "t"), 400, "bad_request:t", /^name must be well-formed Unicode/);
    assert.equal(e1.field, "name");
    const e2 = await rejects(parseBody(post('{"name":"a","tags":["ok","\\udc00"]}'), schema, "t"), 400, "bad_request:t", /^tags\[1\] must be well-formed/);
    assert.equal(e2.field, "tags");
    // NUL too: PostgreSQL cannot store it, so it is refused on every database.
    const e3 = await rejects(parseBody(post('{"name":"a\\u0000b"}'), schema, "t"), 400, "bad_request:t", /^name must not contain NUL characters/);
    assert.equal(e3.field, "name");
    // A well-formed pair is text like any other.
    assert.deepEqual(await parseBody(post('{"name":"\\ud83d\\ude00"}'), schema, "t"), { name: "😀" });
  });

  it("names every invalid field at once, each with its first problem; the response carries them as `errors`", async () => {
    const e = await rejects(parseBody(post('{"name":"  ","tags":[1, 2]}'), schema, "t"), 400, "bad_request:t");
    assert.equal(e.field, "name");
    assert.deepEqual(e.issues?.map((i) => i.field), ["name", "tags"]);
    const body = (await toErrorResponse(e).json()) as { field: string; errors: { field: string; message: string }[] };
    assert.equal(body.field, "name");
    assert.deepEqual(body.errors, e.issues);
  });
});

describe("parseQuery", () => {
  const query = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().max(5).optional() });
  it("reads the query string with the schema's defaults", () => {
    assert.deepEqual(parseQuery(new Request("http://localhost/api/x?cursor=ab"), query, "t"), { limit: 20, cursor: "ab" });
  });
  it("400 naming the first invalid parameter", () => {
    assert.throws(() => parseQuery(new Request("http://localhost/api/x?limit=0"), query, "t"), (e: AppError) => httpStatusOf(e) === 400 && e.code === "bad_request:t" && e.field === "limit");
  });
});
