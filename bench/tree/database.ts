// The databases the benchmark's server can run on (--database), created by TestApp.
export type BenchDatabase = "sqlite" | "postgres";
export const BENCH_DATABASES: readonly BenchDatabase[] = ["sqlite", "postgres"];

/** The database of a result; results recorded before the --database option have none: SQLite. */
export const databaseOf = (r: { database?: BenchDatabase }): BenchDatabase => r.database ?? "sqlite";
