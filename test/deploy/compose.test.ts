// The deploy files (issue 26): docker-compose.yml is checked by `docker compose config` where Docker
// Compose is installed, and always by the shape check below (services, the scalable worker, the
// shared data volume, SearXNG's JSON format, the multi-stage non-root Dockerfile).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { parse } from "yaml";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

interface Service {
  build?: unknown;
  image?: string;
  command?: string[];
  ports?: string[];
  container_name?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}
const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { services } = compose;

test("docker compose config accepts the file (where Docker Compose is installed)", (t) => {
  const version = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
  if (version.status !== 0) {
    t.skip("docker compose is not installed here; the shape checks below still run");
    return;
  }
  const r = spawnSync("docker", ["compose", "-f", path.join(ROOT, "docker-compose.yml"), "config", "--quiet"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

test("app, a scalable worker, PostgreSQL, Redis and SearXNG", () => {
  assert.deepEqual(Object.keys(services).sort(), ["app", "postgres", "redis", "searxng", "worker"]);
  for (const [name, s] of Object.entries(services)) {
    assert.ok(s.image || s.build, `${name} has an image or a build`);
    for (const dep of Object.keys(s.depends_on ?? {})) assert.ok(services[dep], `${name} depends on ${dep}, a service`);
    for (const v of s.volumes ?? []) {
      const source = v.split(":")[0];
      if (source.startsWith(".")) assert.ok(fs.existsSync(path.join(ROOT, source)), `${name} mounts ${source}, which exists`);
      else assert.ok(source in (compose.volumes ?? {}), `${name}'s volume ${source} is declared`);
    }
  }
  const { app, worker } = services;
  // Scaling (--scale worker=N) needs no fixed name and no host port.
  assert.equal(worker.container_name, undefined);
  assert.equal(worker.ports, undefined);
  assert.deepEqual(worker.command, ["npm", "run", "worker"]);
  assert.equal(worker.image, app.image, "the worker runs the app's image");
  assert.ok(app.healthcheck || read("Dockerfile").includes("HEALTHCHECK"), "the app reports healthy once migrated");
  assert.equal(worker.depends_on?.app?.condition, "service_healthy", "workers start after the app migrated the database");
  for (const s of [app, worker]) {
    const env = s.environment ?? {};
    assert.match(env.DATABASE_URL ?? "", /^postgres(ql)?:\/\/[^@]+@postgres:5432\//);
    assert.match(env.REDIS_URL ?? "", /^redis:\/\/redis:6379/);
    assert.match(env.SEARXNG_URL ?? "", /^http:\/\/searxng:8080/);
    assert.ok((env.AUTH_SECRET ?? "").length >= 32 || /\$\{AUTH_SECRET/.test(env.AUTH_SECRET ?? ""));
    assert.ok((s.volumes ?? []).some((v) => v.endsWith(":/app/data")), "reports and uploads on the shared data volume");
  }
});

test("SearXNG's settings enable the JSON format", () => {
  const mount = (services.searxng.volumes ?? []).find((v) => v.includes(":/etc/searxng/settings.yml"));
  assert.ok(mount);
  const settings = parse(read(mount.split(":")[0])) as { search?: { formats?: string[] } };
  assert.ok(settings.search?.formats?.includes("json"));
});

test("the Dockerfile is multi-stage and runs as a non-root user", () => {
  const lines = read("Dockerfile").split("\n").map((l) => l.trim());
  const stages = lines.filter((l) => /^FROM\s/i.test(l));
  assert.ok(stages.length >= 2, "several stages");
  const finalStage = lines.slice(lines.lastIndexOf(stages.at(-1)!));
  const user = finalStage.filter((l) => /^USER\s/i.test(l)).at(-1);
  assert.ok(user && !/^USER\s+(root|0)(:|$)/i.test(user), `the final stage runs as ${user}`);
  assert.ok(finalStage.some((l) => /^CMD\s/.test(l)));
});
