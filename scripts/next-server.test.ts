// How the launchers start the production server: its memory settings, which an operator's own win over.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { nextStartCommand, serverNodeArgs } from "./next-server.mjs";

test("the server runs node itself with the memory flags first, then the caller's, then next start", () => {
  const { command, args } = nextStartCommand({ port: 3100, host: "127.0.0.1", nodeArgs: ["--max-semi-space-size=64"], env: {} });
  assert.equal(command, process.execPath);
  assert.deepEqual(args.slice(0, 3), ["--heap-growing-percent=50", "--max-semi-space-size=8", "--max-semi-space-size=64"], "a caller's flag comes later, so it wins");
  assert.match(args[3], /node_modules\/next\/dist\/bin\/next$/);
  assert.deepEqual(args.slice(4), ["start", "-p", "3100", "-H", "127.0.0.1"]);
  assert.deepEqual(nextStartCommand({ port: "3000", env: {} }).args.slice(-3), ["start", "-p", "3000"]);
});

test("an operator's NODE_OPTIONS semi-space and MALLOC_ARENA_MAX are kept", () => {
  assert.deepEqual(serverNodeArgs({ NODE_OPTIONS: "--max-semi-space-size=32" }), ["--heap-growing-percent=50"]);
  assert.deepEqual(nextStartCommand({ port: 1, env: { PATH: "/bin" } }).env, { MALLOC_ARENA_MAX: "2", PATH: "/bin" });
  assert.equal(nextStartCommand({ port: 1, env: { MALLOC_ARENA_MAX: "8" } }).env.MALLOC_ARENA_MAX, "8");
});

test("this Node takes the flags (an unknown one would stop the server from starting)", () => {
  const out = execFileSync(process.execPath, [...serverNodeArgs({}), "-e", "console.log(process.execArgv.join(' '))"], { encoding: "utf8" });
  assert.ok(out.startsWith("--heap-growing-percent=50 --max-semi-space-size=8 "), out);
});
