// Skills as hooks (TanStack Query): the household's and the member's own, and the changes to them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Skill, SkillsResponse } from '../../api/types';

const SKILLS_KEY = ['skills'] as const;

export function useSkills() {
  return useQuery({ queryKey: SKILLS_KEY, queryFn: ({ signal }) => api.get<SkillsResponse>('/api/skills', { signal }) });
}

export interface SkillDraft {
  name: string;
  description: string;
  instructions: string;
  tools: string[];
  starterPrompts: string[];
  scope?: 'household' | 'mine';
}

export function useSaveSkill() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draft }: { id: string | null; draft: SkillDraft }) => {
      if (id) {
        const { scope: _scope, ...patch } = draft;
        return api.patch<{ skill: Skill }>(`/api/skills/${encodeURIComponent(id)}`, patch);
      }
      return api.post<{ skill: Skill }>('/api/skills', draft);
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: SKILLS_KEY }),
  });
}

export function useDeleteSkill() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ deleted: boolean }>(`/api/skills/${encodeURIComponent(id)}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: SKILLS_KEY }),
  });
}
