import assert from "node:assert/strict";
import { test } from "node:test";
import { boosted, hostAllowed, urlAllowed } from "./hostnames";
import { rankUrls } from "./urls";

test("bad_hostnames exclude a host and its subdomains; only_hostnames admit nothing else", () => {
  const bad = { badHostnames: ["127.0.0.1", "example.com"] };
  assert.equal(hostAllowed("127.0.0.1", bad), false);
  assert.equal(hostAllowed("news.example.com", bad), false);
  assert.equal(hostAllowed("notexample.com", bad), true);
  assert.equal(urlAllowed("http://127.0.0.1:8080/page", bad), false);
  const only = { onlyHostnames: ["wikipedia.org"] };
  assert.equal(urlAllowed("https://en.wikipedia.org/wiki/X", only), true);
  assert.equal(urlAllowed("https://example.org/", only), false);
  // A bad host inside the allowed ones stays out.
  assert.equal(hostAllowed("bad.wikipedia.org", { ...only, badHostnames: ["bad.wikipedia.org"] }), false);
  assert.equal(urlAllowed("https://anything.net/", undefined), true);
});

test("boost_hostnames rank their URLs first", () => {
  const urls = [
    { url: "https://a.com/1", title: "", snippet: "", hits: 3 },
    { url: "https://b.org/1", title: "", snippet: "", hits: 1 },
  ];
  assert.deepEqual(rankUrls(urls, []).map((u) => u.url), ["https://a.com/1", "https://b.org/1"]);
  const options = { boostHostnames: ["b.org"] };
  assert.equal(boosted("https://www.b.org/x", options), true);
  assert.deepEqual(rankUrls(urls, [], { boost: (u) => boosted(u, options) }).map((u) => u.url), ["https://b.org/1", "https://a.com/1"]);
});
