"use client";
// Scrolls the cited passage into view when the document opens (the page is long; the passage is the point).
import { useEffect } from "react";

export function ScrollIntoView({ targetId }: { targetId: string }) {
  useEffect(() => {
    document.getElementById(targetId)?.scrollIntoView({ block: "center" });
  }, [targetId]);
  return null;
}
