import type { NextConfig } from "next";
import { securityHeaders } from "./lib/auth/security-headers";

const nextConfig: NextConfig = {
  // Native and adapter packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "linkedom", "unpdf", "@duckdb/node-api", "@duckdb/node-bindings", "read-excel-file", "bullmq", "ioredis", "@bull-board/api", "@bull-board/hono", "@bull-board/ui", "ejs"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(process.env.NODE_ENV === "development") }];
  },
};

export default nextConfig;
