import assert from "node:assert/strict";
import { test } from "node:test";
import { dropSessionRefresh, isSessionRefresh } from "./session-refresh";

test("a session cookie with a value is a refresh; a cleared one is not", () => {
  for (const name of ["authjs.session-token", "__Secure-authjs.session-token", "authjs.session-token.0"]) {
    assert.equal(isSessionRefresh(`${name}=eyJhbGciOi.abc; Path=/; Expires=Sun, 25 May 2031 22:22:36 GMT; HttpOnly; SameSite=Lax`), true, name);
    assert.equal(isSessionRefresh(`${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=lax`), false, name);
    assert.equal(isSessionRefresh(`${name}=x; Path=/; Max-Age=0`), false, name);
  }
  assert.equal(isSessionRefresh("authjs.callback-url=http%3A%2F%2Fexample; Path=/"), false);
  assert.equal(isSessionRefresh("authjs.csrf-token=abc; Path=/"), false);
});

test("dropping refreshes keeps deletions and other cookies, in order", () => {
  const headers = new Headers({ "content-type": "text/html" });
  headers.append("set-cookie", "authjs.session-token=fresh; Path=/; HttpOnly");
  headers.append("set-cookie", "authjs.callback-url=%2F; Path=/");
  headers.append("set-cookie", "authjs.session-token=; Path=/; Max-Age=0");
  dropSessionRefresh(headers);
  assert.deepEqual(headers.getSetCookie(), ["authjs.callback-url=%2F; Path=/", "authjs.session-token=; Path=/; Max-Age=0"]);
  assert.equal(headers.get("content-type"), "text/html");
});
