import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { lastProject, rememberProject } from '../last-visited.ts';
import { navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { SelectField } from './ui.tsx';

/** The project a page looks at, kept in ?project= so that links and reloads keep it; without it, the last one looked at. */
export function useSelectedProject(accountId: string) {
  const trpc = useTRPC();
  const projects = useQuery(trpc.projects.list.queryOptions({ accountId }));
  const { path, search } = useLocation();
  const wanted = search.get('project') ?? lastProject(accountId);
  const project = projects.data?.find((candidate) => candidate.id === wanted) ?? projects.data?.[0];
  useEffect(() => {
    if (project !== undefined) rememberProject(accountId, project.id);
  }, [accountId, project]);
  const choose = (projectId: string) => {
    const next = new URLSearchParams(search);
    next.set('project', projectId);
    next.delete('workspace');
    navigate(`${path}?${next}`, { replace: true });
  };
  return { projects, project, choose };
}

export function ProjectPicker({ accountId }: { accountId: string }) {
  const { projects, project, choose } = useSelectedProject(accountId);
  if (!projects.data || projects.data.length < 2) return null;
  return (
    <div style={{ maxWidth: '20rem', marginBottom: '1rem' }}>
      <SelectField label="Project" value={project?.id ?? ''} onChange={(event) => choose(event.target.value)}>
        {projects.data.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
            {candidate.active ? '' : ' (deactivated)'}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
