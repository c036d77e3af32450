// Preloaded into the benchmark's server (`node --require`): counts the SQL statements the server
// sends to its database, on SQLite (better-sqlite3) and PostgreSQL (pg) alike, without touching the
// product code. Both drivers are loaded by Node at run time (serverExternalPackages), so wrapping
// them when they are first required sees every statement, Prisma's and raw SQL's.
//
// On SIGUSR2 the counters are written (synchronously) to $QUARRY_BENCH_STATEMENTS_FILE as
// {signals, total, writes, reads, transactions}; the bench signals before and after the measured
// research and takes the difference (bench/tree/statements.ts).
//
// It also keeps the server's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution):
// each snapshot carries the delay since the previous one (p50, p99, max in ms), and starts it anew,
// so the snapshot at the stream's end covers the measured research.
"use strict";
const fs = require("node:fs");
const Module = require("node:module");

const file = process.env.QUARRY_BENCH_STATEMENTS_FILE;
const counts = { signals: 0, total: 0, writes: 0, reads: 0, transactions: 0 };

// With QUARRY_BENCH_STATEMENT_TEXTS=FILE, each distinct statement's count too (its text with literals
// and placeholders folded), most sent first: to FILE on each SIGUSR2, and every second to FILE.<pid>
// (queue mode's workers get this hook too then, and are never signalled). On SQLite each entry also has
// the milliseconds its calls took (better-sqlite3 runs them synchronously, on the main thread):
// [text, count, ms]; on PostgreSQL [text, count].
const textsFile = process.env.QUARRY_BENCH_STATEMENT_TEXTS;
const texts = new Map();
const times = new Map();
const textsJson = () =>
  JSON.stringify([...texts].sort((a, b) => b[1] - a[1]).map(([text, n]) => (times.has(text) ? [text, n, Math.round(times.get(text) * 100) / 100] : [text, n])), null, 1);
const keyOf = (sql) => sql.replace(/\$\d+|\?|'[^']*'|\b\d+\b/g, "?").replace(/(\?,\s*)+\?/g, "?…").replace(/\s+/g, " ").slice(0, 400);

/** Counts a statement; returns its text's key when texts are tallied (for its time), else undefined. */
function count(sql) {
  counts.total++;
  let key;
  if (textsFile && typeof sql === "string") {
    key = keyOf(sql);
    texts.set(key, (texts.get(key) ?? 0) + 1);
  }
  const head = /^\s*(\w+)/.exec(typeof sql === "string" ? sql : "")?.[1]?.toUpperCase() ?? "";
  if (head === "INSERT" || head === "UPDATE" || head === "DELETE" || head === "REPLACE") counts.writes++;
  else if (head === "BEGIN" || head === "COMMIT" || head === "ROLLBACK" || head === "SAVEPOINT" || head === "RELEASE" || head === "START" || head === "END")
    counts.transactions++;
  else if (head === "WITH" && /\b(INSERT|UPDATE|DELETE)\b/i.test(sql)) counts.writes++;
  else counts.reads++;
  return key;
}

const patched = new WeakSet();
function wrap(proto, name, sqlOf, timed = false) {
  const original = proto[name];
  if (typeof original !== "function") return;
  proto[name] = function (...args) {
    const key = count(sqlOf(this, args));
    if (!timed || key === undefined) return original.apply(this, args);
    const start = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      times.set(key, (times.get(key) ?? 0) + Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
}

function patchBetterSqlite3(Database) {
  if (typeof Database !== "function" || patched.has(Database)) return;
  patched.add(Database);
  // One call of exec may hold several statements (the pragmas on connect): counted as one.
  wrap(Database.prototype, "exec", (_db, args) => args[0]);
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (...args) {
    const statement = prepare.apply(this, args);
    const proto = Object.getPrototypeOf(statement);
    if (!patched.has(proto)) {
      patched.add(proto);
      for (const name of ["run", "get", "all"]) wrap(proto, name, (s) => s.source, true);
      wrap(proto, "iterate", (s) => s.source);
    }
    return statement;
  };
}

function patchPg(pg) {
  const Client = pg && pg.Client;
  if (typeof Client !== "function" || patched.has(Client)) return;
  patched.add(Client);
  wrap(Client.prototype, "query", (_client, args) => (typeof args[0] === "string" ? args[0] : args[0] && args[0].text));
}

// By name from require(), by file name when an ES module imports them (Prisma's adapters do).
const BETTER_SQLITE3 = /^better-sqlite3$|[\\/]node_modules[\\/]better-sqlite3[\\/]lib[\\/]index\.js$/;
const PG = /^pg$|[\\/]node_modules[\\/]pg[\\/]lib[\\/]index\.js$/;
const load = Module._load;
Module._load = function (request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (typeof request === "string") {
    if (BETTER_SQLITE3.test(request)) patchBetterSqlite3(exported);
    else if (PG.test(request)) patchPg(exported);
  }
  return exported;
};

// Worker threads run the preload too (a loader's hooks thread, the extraction pool): they send no
// statements, and their own empty tally written to the same FILE.<pid> would replace the main thread's.
if (textsFile && require("node:worker_threads").isMainThread) {
  // A worker run by tsx imports pg as an ES module, past Module._load: patched here first, in the require cache it shares.
  try {
    patchPg(require(require.resolve("pg", { paths: [process.cwd()] })));
  } catch {
    // not installed: nothing to count there
  }
  setInterval(() => fs.writeFileSync(`${textsFile}.${process.pid}`, textsJson()), 1000).unref();
}

const loop = require("node:perf_hooks").monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const ms = (ns) => Math.round(ns / 1e4) / 100;

if (file) {
  process.on("SIGUSR2", () => {
    counts.signals++;
    const loopDelay = { p50Ms: ms(loop.percentile(50)), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max), samples: loop.count };
    loop.reset();
    fs.writeFileSync(file, JSON.stringify({ ...counts, loopDelay }));
    if (textsFile) fs.writeFileSync(textsFile, textsJson());
  });
}
