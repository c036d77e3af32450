// The installation's .env file (KEY=value lines; .env.example lists every variable): npm start,
// npm run dev, npm run token, npm run research and the Prisma CLI read it before anything else.
// A variable already set in the environment wins over the file. QUARRY_ENV_FILE names another file.
import fs from "node:fs";
import path from "node:path";

/** Loads the .env file under `root` into process.env (keeping what is set); its path, or null when there is none. */
export function loadDotEnv(root) {
  const file = path.resolve(root, process.env.QUARRY_ENV_FILE || ".env");
  if (!fs.existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
