/** Node flags for the server's process, before any a caller adds (the last of a flag wins). */
export function serverNodeArgs(env?: Record<string, string | undefined>): string[];
/** The command, arguments and environment that start the production build on `port` (and `host`). */
export function nextStartCommand<E extends Record<string, string | undefined>>(options: {
  port: number | string;
  host?: string;
  nodeArgs?: string[];
  env?: E;
}): { command: string; args: string[]; env: E & { MALLOC_ARENA_MAX: string } };
