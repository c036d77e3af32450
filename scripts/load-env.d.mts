/** Loads the .env file under `root` into process.env (keeping what is set); its path, or null when there is none. */
export function loadDotEnv(root: string): string | null;
