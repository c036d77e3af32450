"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type StartInput } from "@/lib/client/api";

export function useGenerateQuestions() {
  return useMutation({ mutationFn: api.questions });
}

/** A mutation that changes a research, after which the history list is fetched again. */
function useResearchesMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}

export function useStartResearch() {
  return useResearchesMutation((input: StartInput) => api.start(input));
}

export function useCancelResearch() {
  return useResearchesMutation((id: string) => api.cancel(id));
}

export function useDeleteResearch() {
  return useResearchesMutation((id: string) => api.remove(id));
}

export function useResumeResearch() {
  return useResearchesMutation((id: string) => api.resume(id));
}

export function useWriteReport() {
  return useResearchesMutation((id: string) => api.writeReport(id));
}

export function useFollowUp() {
  return useResearchesMutation(({ id, ...input }: { id: string; question: string; query_id?: string; depth: number; breadth: number }) => api.followUp(id, input));
}

export function useRerunResearch() {
  return useResearchesMutation(({ id, depth, breadth }: { id: string; depth: number; breadth: number }) => api.rerun(id, { depth, breadth }));
}
