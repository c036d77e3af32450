import type { Metadata } from "next";
import { AnswerHistory } from "@/components/answer-history";
import { HistoryList } from "@/components/history-list";

export const metadata: Metadata = { title: "History" };

export default function HistoryPage() {
  return (
    <>
      <HistoryList />
      <div className="mt-10">
        <AnswerHistory />
      </div>
    </>
  );
}
