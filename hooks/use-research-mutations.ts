"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type StartInput } from "@/lib/client/api";

export function useGenerateQuestions() {
  return useMutation({ mutationFn: api.questions });
}

export function useStartResearch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: StartInput) => api.start(input),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}

export function useCancelResearch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.cancel(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}

export function useDeleteResearch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}

export function useResumeResearch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.resume(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}

export function useWriteReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.writeReport(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["researches"] }),
  });
}
