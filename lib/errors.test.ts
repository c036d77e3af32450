import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorMessage } from "./errors";

describe("errorMessage", () => {
  it("is storable: a failure's message is saved with its run, on PostgreSQL too", () => {
    assert.equal(errorMessage(new Error("upstream said: a\u0000b \ud800")), "upstream said: ab \ufffd");
    assert.equal(errorMessage("plain"), "plain");
  });
});
