// Whether the production build (.next) is older than the sources it was built from. Shared by
// `npm start` and `npm run bench`, which both serve the build.
import fs from "node:fs";
import path from "node:path";

const SOURCE_DIRS = ["app", "components", "hooks", "lib", "public"];
const SOURCE_FILES = ["package.json", "next.config.ts", "proxy.ts", "instrumentation.ts"];

/** The newest modification time under the folders and files a build depends on. */
function newestSource(root) {
  let newest = 0;
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "generated" || entry.name === "node_modules") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  for (const file of SOURCE_FILES) {
    const full = path.join(root, file);
    if (fs.existsSync(full)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIsStale(root) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  return !fs.existsSync(buildId) || newestSource(root) > fs.statSync(buildId).mtimeMs;
}
