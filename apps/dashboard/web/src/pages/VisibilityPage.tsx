import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ProjectPicker, useSelectedProject } from '../components/ProjectPicker.tsx';
import { Dialog, Empty, ErrorText, Loading, PageTitle, Saved } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

type Role = 'owner' | 'admin' | 'member';
type Rule = { mode: 'organization' | 'listed' | 'author'; userIds: string[]; roles: Role[] };
type Choice = Rule['mode'] | 'inherit';

const labels: Record<Choice, string> = {
  inherit: 'Follow the project default',
  organization: 'Whole organization',
  listed: 'Listed members and roles',
  author: 'Author only',
};

function describe(rule: Rule, emails: Map<string, string>): string {
  if (rule.mode !== 'listed') return labels[rule.mode];
  const who = [...rule.roles.map((role) => `${role}s`), ...rule.userIds.map((id) => emails.get(id) ?? 'a former member')];
  return `Listed: ${who.length > 0 ? who.join(', ') : 'nobody but the author'}`;
}

/** A restricted workspace: not everyone in the organization reads it. */
export function Lock() {
  return (
    <span className="lock" role="img" aria-label="Restricted" title="Restricted: not everyone in the organization reads it">
      🔒
    </span>
  );
}

function RuleEditor({
  title,
  rule,
  allowInherit,
  members,
  disabled,
  savedAt,
  onSave,
}: {
  title: string;
  rule: Rule | null;
  allowInherit: boolean;
  members: Array<{ userId: string; email: string }>;
  disabled: boolean;
  savedAt: number | undefined;
  onSave: (rule: Rule | null) => void;
}) {
  const [confirmNobody, setConfirmNobody] = useState(false);
  const id = useId();
  const [choice, setChoice] = useState<Choice>(rule?.mode ?? (allowInherit ? 'inherit' : 'organization'));
  const [userIds, setUserIds] = useState<string[]>(rule?.userIds ?? []);
  const [roles, setRoles] = useState<Role[]>(rule?.roles ?? []);
  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((item) => item !== value) : [...list, value]);
  const choices: Choice[] = allowInherit ? ['inherit', 'organization', 'listed', 'author'] : ['organization', 'listed', 'author'];
  return (
    <fieldset className="stack" disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="muted">Who reads {title}</legend>
      <div className="row" role="radiogroup" aria-label={`Visibility of ${title}`}>
        {choices.map((value) => (
          <label key={value} style={{ display: 'flex', gap: '0.35rem', alignItems: 'center' }}>
            <input type="radio" name={`${id}-mode`} value={value} checked={choice === value} onChange={() => setChoice(value)} />
            {labels[value]}
          </label>
        ))}
      </div>
      {choice === 'listed' ? (
        <div className="row">
          <fieldset>
            <legend>Roles</legend>
            {(['owner', 'admin', 'member'] as const).map((role) => (
              <label key={role} style={{ display: 'block' }}>
                <input type="checkbox" checked={roles.includes(role)} onChange={() => setRoles(toggle(roles, role))} /> {role}s
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Members</legend>
            {members.map((member) => (
              <label key={member.userId} style={{ display: 'block' }}>
                <input type="checkbox" checked={userIds.includes(member.userId)} onChange={() => setUserIds(toggle(userIds, member.userId))} />{' '}
                {member.email}
              </label>
            ))}
          </fieldset>
        </div>
      ) : null}
      <div>
        <button
          type="button"
          className="primary"
          onClick={() => {
            // "Listed" with nobody listed hides everything but people's own records: asked first.
            if (choice === 'listed' && userIds.length === 0 && roles.length === 0) setConfirmNobody(true);
            else onSave(choice === 'inherit' ? null : { mode: choice, userIds, roles });
          }}
        >
          Save rule for {title}
        </button>
        <Saved at={savedAt} />
      </div>
      <Dialog
        open={confirmNobody}
        title="Nobody is listed"
        onClose={() => setConfirmNobody(false)}
        actions={
          <>
            <button type="button" onClick={() => setConfirmNobody(false)}>
              Go back and list someone
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirmNobody(false);
                onSave({ mode: 'listed', userIds: [], roles: [] });
              }}
            >
              Save with nobody listed
            </button>
          </>
        }
      >
        <p>With no role and no member listed, each person reads only the records they wrote in {title}, owners and admins included.</p>
      </Dialog>
    </fieldset>
  );
}

export function VisibilityPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const admin = isAdminRole(role);
  const { project } = useSelectedProject(accountId);
  const projectId = project?.id ?? '';
  const visibility = useQuery({ ...trpc.visibility.get.queryOptions({ accountId, projectId }), enabled: project !== undefined });
  const members = useQuery(trpc.members.list.queryOptions({ accountId }));
  const [saved, setSaved] = useState<{ target: string; at: number } | undefined>();
  const save = useMutation(
    trpc.visibility.set.mutationOptions({
      onSuccess: async (_answer, input) => {
        setSaved({ target: input.workspaceId ?? 'project', at: Date.now() });
        await queryClient.invalidateQueries();
      },
    }),
  );
  const savedAt = (target: string) => (saved?.target === target ? saved.at : undefined);
  const active = members.data?.filter((member) => member.removedAt === null) ?? [];
  const emails = new Map(members.data?.map((member) => [member.userId, member.email]) ?? []);
  const fallback: Rule = { mode: 'organization', userIds: [], roles: [] };
  return (
    <>
      <PageTitle>Visibility</PageTitle>
      <ProjectPicker accountId={accountId} />
      <p className="muted">
        Who may read the records of each workspace, through every door: assistants' search and validate_memory, summaries, graph
        previews and this dashboard. Authors always read their own records, and so do those who received their knowledge in a handover.
        {admin ? '' : ' Only owners and admins change the rules.'}
      </p>
      <ErrorText error={visibility.error ?? save.error} />
      {visibility.isPending ? (
        <Loading what="visibility rules" />
      ) : visibility.data ? (
        <>
          <section className="panel stack">
            <h2 style={{ marginTop: 0 }}>Project default{project ? `: ${project.name}` : ''}</h2>
            <p>Now: {describe(visibility.data.projectDefault ?? fallback, emails)}</p>
            {admin ? (
              <RuleEditor
                key={`${projectId}-default-${JSON.stringify(visibility.data.projectDefault)}`}
                title="the project"
                rule={visibility.data.projectDefault}
                allowInherit={false}
                members={active}
                disabled={save.isPending}
                savedAt={savedAt('project')}
                onSave={(rule) => save.mutate({ accountId, projectId, rule })}
              />
            ) : null}
          </section>
          <h2>Workspaces</h2>
          {visibility.data.workspaces.length === 0 ? (
            <Empty>No workspaces yet: they follow the project default once created.</Empty>
          ) : (
            visibility.data.workspaces.map((workspace) => (
              <section className="panel stack" key={workspace.workspaceId} aria-label={`Workspace ${workspace.name}`}>
                <h3 style={{ margin: 0 }}>
                  {workspace.effective.mode === 'organization' ? null : <Lock />}
                  {workspace.name}
                </h3>
                <p>
                  Now: {describe(workspace.effective, emails)}
                  {workspace.rule === null ? <span className="muted"> (project default)</span> : null}
                </p>
                {admin ? (
                  <RuleEditor
                    key={`${workspace.workspaceId}-${JSON.stringify(workspace.rule)}`}
                    title={`workspace ${workspace.name}`}
                    rule={workspace.rule}
                    allowInherit
                    members={active}
                    disabled={save.isPending}
                    savedAt={savedAt(workspace.workspaceId)}
                    onSave={(rule) => save.mutate({ accountId, projectId, workspaceId: workspace.workspaceId, rule })}
                  />
                ) : null}
              </section>
            ))
          )}
        </>
      ) : null}
    </>
  );
}
