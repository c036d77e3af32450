#!/usr/bin/env node
// npm start: read .env, migrate the database (creating it on first run), build if needed, make sure
// there is an AUTH_SECRET, then serve.
import { spawnSync, spawn } from "node:child_process";
import path from "node:path";
import { ensureAuthSecret } from "./auth-secret.mjs";
import { buildIsStale } from "./build-state.mjs";
import { loadDotEnv } from "./load-env.mjs";
import { nextStartCommand } from "./next-server.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const envFile = loadDotEnv(root);
if (envFile) console.log(`[quarry] read ${path.relative(root, envFile) || envFile}`);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run("node", [path.join("scripts", "migrate.mjs")]);
if (buildIsStale(root) || process.env.QUARRY_REBUILD === "1") {
  run("npm", ["run", "build"]);
}
// Production needs AUTH_SECRET; the embedded default keeps a generated one in data/auth-secret.
ensureAuthSecret(process.env, root);
const port = process.env.PORT ?? "3000";
const { command, args, env } = nextStartCommand({ port });
const server = spawn(command, args, { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
