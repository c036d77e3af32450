import type { Metadata } from "next";
import { connection } from "next/server";
import { ConversationView } from "@/components/deep-research/conversation-view";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Deep research" };

function semiCap(): number {
  try {
    return getEnv().MAX_AUTO_ITERATIONS;
  } catch {
    return 5;
  }
}

export default async function DeepResearchPage({ params }: { params: Promise<{ id: string }> }) {
  await connection(); // the cap comes from the environment at request time
  const { id } = await params;
  return <ConversationView id={id} semiCap={semiCap()} />;
}
