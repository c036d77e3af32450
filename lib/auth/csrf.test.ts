import assert from "node:assert/strict";
import { test } from "node:test";
import { isSameOriginRequest } from "./csrf";
import { resetEnvCache } from "../env";

const req = (method: string, headers: Record<string, string>) => new Request("http://localhost:3000/api/tokens", { method, headers: { host: "localhost:3000", ...headers } });

test("reads are always allowed", () => {
  assert.equal(isSameOriginRequest(req("GET", { "sec-fetch-site": "cross-site" })), true);
});

test("Sec-Fetch-Site decides when present", () => {
  assert.equal(isSameOriginRequest(req("POST", { "sec-fetch-site": "same-origin" })), true);
  assert.equal(isSameOriginRequest(req("DELETE", { "sec-fetch-site": "cross-site" })), false);
  assert.equal(isSameOriginRequest(req("POST", { "sec-fetch-site": "same-site", origin: "http://localhost:3000" })), false);
});

test("without Sec-Fetch-Site the Origin must be our host", () => {
  assert.equal(isSameOriginRequest(req("POST", { origin: "http://localhost:3000" })), true);
  assert.equal(isSameOriginRequest(req("POST", { origin: "http://evil.example" })), false);
  assert.equal(isSameOriginRequest(req("POST", { origin: "null" })), false);
  assert.equal(isSameOriginRequest(req("POST", {})), false, "no Origin at all");
});

test("X-Forwarded-Host counts only behind a trusted proxy (TRUST_PROXY=1)", (t) => {
  const forged = req("POST", { origin: "http://evil.example", "x-forwarded-host": "evil.example" });
  const proxied = req("POST", { origin: "https://quarry.example", "x-forwarded-host": "quarry.example" });
  t.after(() => {
    delete process.env.TRUST_PROXY;
    resetEnvCache();
  });
  delete process.env.TRUST_PROXY;
  resetEnvCache();
  assert.equal(isSameOriginRequest(forged), false, "anyone can send the header: by default it is ignored");
  assert.equal(isSameOriginRequest(proxied), false);
  process.env.TRUST_PROXY = "1";
  resetEnvCache();
  assert.equal(isSameOriginRequest(proxied), true, "behind a proxy");
});
