#!/usr/bin/env node
// Playwright's app server: a fresh SQLite database under data/e2e/, migrated, then the production
// build (`npm run build` must have run) on port 3100. Env (LLM, SearXNG → the fakes) comes from
// playwright.config.ts.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nextStartCommand } from "../scripts/next-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.error("[e2e] no production build: run `npm run build` first");
  process.exit(1);
}

const dir = path.join(root, "data", "e2e");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

const env = {
  ...process.env,
  NODE_ENV: "production",
  DATABASE_URL: process.env.DATABASE_URL ?? "file:./data/e2e/quarry.db",
  REPORTS_DIR: process.env.REPORTS_DIR ?? "data/e2e/reports",
  AUTH_SECRET_FILE: process.env.AUTH_SECRET_FILE ?? "data/e2e/auth-secret",
  // An LLM outage is declared after 3 s without a success (20 s by default), so a spec sees the pause soon.
  LLM_OUTAGE_AFTER_MS: process.env.LLM_OUTAGE_AFTER_MS ?? "3000",
};
try {
  const { ensureAuthSecret } = await import("../scripts/auth-secret.mjs");
  ensureAuthSecret(env, root);
} catch {
  // no auth in this build
}

const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { stdio: "inherit", env });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const port = process.env.PORT ?? "3100";
const start = nextStartCommand({ port, host: "127.0.0.1", env });
const server = spawn(start.command, start.args, { stdio: "inherit", env: start.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
