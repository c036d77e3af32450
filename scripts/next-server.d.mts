/** Node flags for the server's process, before any a caller adds (the last of a flag wins). */
export function serverNodeArgs(env?: Record<string, string | undefined>): string[];
/** The server's environment: `env` with MALLOC_ARENA_MAX=2 unless it sets its own. */
export function serverEnv<E extends Record<string, string | undefined>>(env: E): E & { MALLOC_ARENA_MAX: string };
/** The command and arguments that start the production build on `port` (and `host`). */
export function nextStartCommand(options: { port: number | string; host?: string; nodeArgs?: string[]; env?: Record<string, string | undefined> }): { command: string; args: string[] };
