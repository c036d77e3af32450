#!/usr/bin/env node
// npm start: migrate the database (creating it on first run), build if needed, then serve.
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

/** The newest modification time under the folders a build depends on. */
function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "generated" || entry.name === "node_modules") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  for (const file of ["package.json", "next.config.ts", "proxy.ts", "instrumentation.ts"]) {
    if (fs.existsSync(file)) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

run("npx", ["prisma", "migrate", "deploy"]);
const buildId = path.join(root, ".next", "BUILD_ID");
const stale = !fs.existsSync(buildId) || newestSource(["app", "components", "hooks", "lib", "public"]) > fs.statSync(buildId).mtimeMs;
if (stale || process.env.QUARRY_REBUILD === "1") {
  run("npx", ["next", "build"]);
}
const port = process.env.PORT ?? "3000";
const server = spawn("npx", ["next", "start", "-p", port], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
