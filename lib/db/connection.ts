// For scripts that must end their process: closes the client's connections (PostgreSQL's pool keeps Node alive).
import { db } from "./client";

export async function disconnectDatabase() {
  await db.$disconnect();
}
