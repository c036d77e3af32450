import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ScrapeError } from "./errors";
import { addressRange, isPublicAddress, resolveTarget, type LookupFn } from "./ssrf";

describe("addressRange", () => {
  const table: Array<[string, string]> = [
    ["93.184.215.14", "unicast"],
    ["8.8.8.8", "unicast"],
    ["2606:4700:4700::1111", "unicast"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["2001:db8::1", "reserved"],
    // IPv6 forms that embed an IPv4 address are judged by that address
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["::ffff:8.8.8.8", "unicast"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::808:808", "unicast"],
    ["2002:7f00:1::", "loopback"],
    // outside 2000::/3, e.g. the deprecated IPv4-compatible ::127.0.0.1
    ["::7f00:1", "reserved"],
    ["not-an-ip", "invalid"],
    ["", "invalid"],
  ];
  for (const [ip, expected] of table) {
    it(`${ip || "(empty)"} → ${expected}`, () => {
      assert.equal(addressRange(ip), expected);
      assert.equal(isPublicAddress(ip), expected === "unicast");
    });
  }
});

describe("resolveTarget", () => {
  const answers = (map: Record<string, string[]>) => {
    const calls: string[] = [];
    const lookup: LookupFn = async (host) => {
      calls.push(host);
      return (map[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    };
    return { lookup, calls };
  };

  async function refusal(url: string, lookup: LookupFn, allowPrivate = false): Promise<ScrapeError> {
    const error = await resolveTarget(new URL(url), { allowPrivate, lookup }).then(
      () => assert.fail(`${url} should have been refused`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ScrapeError);
    return error;
  }

  it("refuses a host when any of its addresses is private, naming host and address", async () => {
    const { lookup } = answers({ "example.internal": ["93.184.215.14", "10.0.0.5"] });
    const error = await refusal("https://example.internal/page", lookup);
    assert.equal(error.reason, "blocked");
    assert.equal(error.message, "Refused: example.internal resolves to a private address (10.0.0.5)");
  });

  it("returns every vetted address of a public host", async () => {
    const { lookup } = answers({ "example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    const addresses = await resolveTarget(new URL("https://example.com/"), { allowPrivate: false, lookup });
    assert.deepEqual(addresses.map((a) => a.family), [4, 6]);
  });

  it("refuses localhost and cloud metadata names without resolving them", async () => {
    const { lookup, calls } = answers({});
    for (const url of ["http://localhost/", "http://LOCALHOST./", "http://api.localhost/", "http://metadata.google.internal/computeMetadata/v1/"]) {
      assert.equal((await refusal(url, lookup)).reason, "blocked");
    }
    assert.deepEqual(calls, []);
  });

  it("refuses IP literals without resolving them", async () => {
    const { lookup, calls } = answers({});
    const error = await refusal("http://[::ffff:127.0.0.1]:8080/", lookup);
    assert.equal(error.message, "Refused: ::ffff:7f00:1 is a loopback address");
    assert.deepEqual(calls, []);
  });

  it("reports an unresolvable host as a network failure", async () => {
    const { lookup } = answers({});
    const error = await refusal("http://nowhere.test/", lookup);
    assert.equal(error.reason, "network");
    assert.equal(error.message, "Could not resolve nowhere.test");
  });

  it("lets private addresses through with allowPrivate", async () => {
    const { lookup } = answers({ "intranet.test": ["10.0.0.5"] });
    const addresses = await resolveTarget(new URL("http://intranet.test/"), { allowPrivate: true, lookup });
    assert.deepEqual(addresses, [{ address: "10.0.0.5", family: 4 }]);
  });
});
