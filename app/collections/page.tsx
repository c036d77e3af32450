// Your documents: collections the engines can search beside (or instead of) the web.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CollectionsManager } from "@/components/knowledge/collections-manager";
import { getSessionUserId } from "@/lib/auth/caller";

export const metadata: Metadata = { title: "Documents – Quarry" };

export default async function CollectionsPage() {
  if (!(await getSessionUserId())) redirect("/sign-in?callbackUrl=/collections");
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold">Documents</h1>
        <p className="text-sm text-muted">
          Collections of your own papers, notes and reports. Choose them as sources when you start a research, a deep research or a quick answer.
        </p>
      </header>
      <CollectionsManager />
    </div>
  );
}
