import { getEnv } from "../env";

/** The configured server and model: what a server's learned habits (formats, roles, context window) are remembered by. */
export function serverKey(): string {
  const env = getEnv();
  return `${env.OPENAI_BASE_URL ?? ""}|${env.RESEARCH_MODEL}`;
}
