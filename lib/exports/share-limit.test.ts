// A share link's downloads are limited per link: past RATE_LIMIT_SHARE_EXPORTS_PER_HOUR a 429 with
// a Retry-After, while another link still downloads.
import assert from "node:assert/strict";
import { test } from "node:test";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { takeShareExport } from "./share-limit";

test("a link's exports are limited per hour, each link on its own", () => {
  const limit = getEnv().RATE_LIMIT_SHARE_EXPORTS_PER_HOUR;
  const link = `link-${Date.now()}`;
  for (let i = 0; i < limit; i++) takeShareExport(link);
  assert.throws(
    () => takeShareExport(link),
    (error: unknown) => error instanceof AppError && error.code === "rate_limit:share_export" && (error.retryAfterSeconds ?? 0) > 0,
  );
  assert.doesNotThrow(() => takeShareExport(`${link}-other`), "another link is not held back");
});
