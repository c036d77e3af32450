"use client";
import { useQuery } from "@tanstack/react-query";
import { api, ApiError } from "@/lib/client/api";
import type { VerificationView } from "@/lib/verification/view";

/** A finished report's citation verification; null when it has none (written before verification, or no citations). */
export function useVerification(path: string, enabled: boolean) {
  return useQuery({
    queryKey: ["verification", path],
    queryFn: async () => {
      try {
        return await api.json<VerificationView>(path);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled,
  });
}
