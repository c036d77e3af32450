export const SQLITE_SCHEMA: string;
export const POSTGRES_SCHEMA: string;
/** The PostgreSQL schema for a SQLite schema's text: same models, another provider and client output. */
export function postgresSchema(sqliteSchema: string): string;
export function withoutHandWrittenDrops(sql: string): string;
