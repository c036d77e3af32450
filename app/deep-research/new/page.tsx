import type { Metadata } from "next";
import { connection } from "next/server";
import { StartForm } from "@/components/deep-research/start-form";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "New deep research" };

export default async function NewDeepResearchPage() {
  await connection(); // the semi-autonomous cap comes from the environment at request time
  let cap = 5;
  try { cap = getEnv().MAX_AUTO_ITERATIONS; } catch { /* the default */ }
  return <StartForm semiCap={cap} />;
}
