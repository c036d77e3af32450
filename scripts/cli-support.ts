// What the command-line tools (npm run research, npm run ask) share: the installation's .env, the
// database migrated before use, the account a run is filed under, and one way to end with a clear
// message and exit code (0 done, 1 failed, 2 bad arguments).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { AppError } from "../lib/errors";
import { loadDotEnv } from "./load-env.mjs";

export const ROOT = path.resolve(import.meta.dirname, "..");
loadDotEnv(ROOT);

/** An expected failure: printed as "error: …" without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Creates or migrates the database before anything opens it. */
export function migrateDatabase(databaseUrl: string): void {
  try {
    execFileSync("node", [path.join(ROOT, "scripts", "migrate.mjs")], { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr ?? "").trim() || (error as Error).message;
    throw new CliError(`could not migrate the database (${databaseUrl}):\n${detail}`);
  }
}

/**
 * The account a run is filed under: `--email`'s (which must exist), else the only account when
 * there is exactly one (the usual self-hosted install), so that the run shows in its History.
 */
export async function accountFor(email: string | undefined, hint: string): Promise<string | null> {
  const { getUserByEmail, soleUser } = await import("../lib/db/users");
  if (email !== undefined) {
    const normalised = email.trim().toLowerCase();
    const user = await getUserByEmail({ email: normalised });
    if (!user) throw new CliError(`no account with the email ${normalised} (--email): ${hint}`);
    return user.id;
  }
  const only = await soleUser();
  if (only) {
    console.log(`Filed under ${only.email} (the only account): it appears in that account's History.`);
    return only.id;
  }
  console.log("Filed under no account: with none or several accounts, pass --email to see it in an account's History.");
  return null;
}

/** Runs a CLI's main and exits with its code, or with a one-line error for expected failures. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof CliError) {
        console.error(`error: ${error.message}`);
        process.exit(error.exitCode);
      }
      // AppError: a configuration or LLM problem with a user-facing message; an fs error (e.g. --out
      // not writable) or an invalid environment variable: the message says it all.
      if (error instanceof AppError || (error as NodeJS.ErrnoException)?.code || /^Invalid configuration/.test((error as Error)?.message)) {
        console.error(`error: ${(error as Error).message}`);
        process.exit(1);
      }
      console.error("error: unexpected failure:", error);
      process.exit(1);
    },
  );
}

/**
 * Where a CLI run searches (issue 22): `--collections id,id` adds collections (see GET /api/collections
 * for their ids), `--no-web` leaves the web out (offline with a local LLM). Undefined: the web only.
 */
export function sourcesFromOptions(collections: string | undefined, noWeb: boolean | undefined): { web: boolean; collections: string[] } | undefined {
  const ids = (collections ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0 && !noWeb) return undefined;
  if (ids.length === 0) throw new CliError("--no-web needs --collections: with neither, nothing would be searched", 2);
  return { web: !noWeb, collections: ids };
}
