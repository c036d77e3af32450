#!/usr/bin/env node
// npm run db:migrate (and npm start, npm run dev): apply the migrations of the database DATABASE_URL
// names (from the environment or .env), creating it on first run. Prisma warns on every run that
// the schema's datasource `url` is unused with a driver adapter; Prisma 6 needs that literal (without
// it the CLI tries to download a query engine), so the warning says nothing actionable and is left out.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { loadDotEnv } from "./load-env.mjs";

const root = path.resolve(import.meta.dirname, "..");
loadDotEnv(root);

const UNUSED_URL_WARNING = /\n?WARNING: Your schema specifies the following datasource properties[\s\S]*?only using driver adapters\.\n?/;

const r = spawnSync("npx", ["prisma", "migrate", "deploy"], { cwd: root, env: process.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
process.stdout.write((r.stdout ?? "").replace(UNUSED_URL_WARNING, "\n"));
process.stderr.write((r.stderr ?? "").replace(UNUSED_URL_WARNING, "\n"));
process.exit(r.status ?? 1);
