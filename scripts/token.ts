// npm run token -- create --email you@example.com --name laptop [--password '…'] [--days 90]
// npm run token -- list --email you@example.com
// npm run token -- revoke --email you@example.com --id <token id>
// npm run token -- admin --email you@example.com [--revoke]   (the queue dashboard, /admin/queues)
// Creates the account if it does not exist (then --password is required), and prints a new API
// token on stdout (everything else goes to stderr, so `TOKEN=$(npm run -s token -- create …)` works).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { readOrCreateSecretFile } from "../lib/auth/secret";
import { loadDotEnv } from "./load-env.mjs";

function usage(message?: string): never {
  if (message) console.error(`error: ${message}\n`);
  console.error(
    [
      "usage: npm run token -- create --email <email> --name <name> [--password <password>] [--days <n>]",
      "       npm run token -- list --email <email>",
      "       npm run token -- revoke --email <email> --id <token id>",
      "       npm run token -- admin --email <email> [--revoke]",
    ].join("\n"),
  );
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
    days: { type: "string" },
    id: { type: "string" },
    revoke: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
const command = positionals[0];
if (values.help || !command) usage();
if (!values.email) usage("--email is required");

const root = path.resolve(import.meta.dirname, "..");
loadDotEnv(root);

async function main() {
  // Sign with the same secret as the server: AUTH_SECRET, else the installation's secret file.
  if (!process.env.AUTH_SECRET?.trim()) {
    process.env.AUTH_SECRET = readOrCreateSecretFile(path.resolve(root, process.env.AUTH_SECRET_FILE || "data/auth-secret"));
  }
  // QUARRY_SKIP_MIGRATE=1: the database is migrated and served already (the tests' databases are
  // migrated without Prisma's migration table, which `migrate deploy` would try to fill again).
  if (process.env.QUARRY_SKIP_MIGRATE !== "1") execFileSync("node", [path.join(root, "scripts", "migrate.mjs")], { cwd: root, stdio: "ignore" });
  const { findOrCreateUser } = await import("../lib/auth/users");
  const { issueApiToken, listApiTokens, revokeApiToken } = await import("../lib/auth/api-tokens");
  const { getUserByEmail, setAdmin } = await import("../lib/db/users");
  const { disconnectDatabase } = await import("../lib/db/connection");
  try {
    if (command === "create") {
      if (!values.name?.trim()) usage("--name is required");
      const days = values.days === undefined ? undefined : Number(values.days);
      if (days !== undefined && (!Number.isInteger(days) || days < 1)) usage("--days must be a whole number of at least 1");
      const { user, created } = await findOrCreateUser({ email: values.email!, password: values.password });
      if (created) console.error(`Created account ${user.email}.`);
      const { token, apiToken } = await issueApiToken({ userId: user.id, name: values.name!.trim().slice(0, 100), days });
      console.error(`Token "${apiToken.name}" (id ${apiToken.id}) for ${user.email}, valid until ${apiToken.expiresAt}:`);
      console.log(token);
    } else if (command === "admin") {
      const email = values.email!.trim().toLowerCase();
      if (!(await setAdmin({ email, isAdmin: !values.revoke }))) throw new Error(`No account with the email ${email}`);
      console.error(values.revoke ? `${email} is no longer an administrator.` : `${email} is an administrator: it sees the queue dashboard at /admin/queues.`);
    } else if (command === "list" || command === "revoke") {
      const user = await getUserByEmail({ email: values.email!.trim().toLowerCase() });
      if (!user) throw new Error(`No account with the email ${values.email}`);
      if (command === "revoke") {
        if (!values.id) usage("--id is required");
        await revokeApiToken({ userId: user.id, id: values.id! });
        console.error(`Revoked token ${values.id}.`);
      } else {
        for (const t of await listApiTokens({ userId: user.id })) {
          const state = t.revokedAt ? "revoked" : new Date(t.expiresAt) <= new Date() ? "expired" : "active";
          console.log(`${t.id}\t${state}\t${t.name}\texpires ${t.expiresAt}\tlast used ${t.lastUsedAt ?? "never"}`);
        }
      }
    } else {
      usage(`unknown command "${command}"`);
    }
  } finally {
    await disconnectDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
