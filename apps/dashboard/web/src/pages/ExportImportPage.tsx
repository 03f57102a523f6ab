import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText, Field, PageTitle, SelectField } from '../components/ui.tsx';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../src/router.ts';
import { useTRPC } from '../trpc.ts';

type ExportCursor = inferRouterInputs<AppRouter>['portability']['exportPage']['cursor'];
type ExportPage = inferRouterOutputs<AppRouter>['portability']['exportPage'];
import { isAdminRole, type AccountPageProps } from './page-props.ts';

/** The dashboard takes files up to this size; larger ones go through `pnpm mmw import` (docs/export-format.md). */
const UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

interface Summary {
  records: number;
  tombstones: number;
  relations: number;
  left_out: { records_not_visible: number; relations_to_left_out_records: number; references_to_left_out_records: number };
}

/** Every page of the export, joined into one JSON Lines file and offered as a download. */
function useExportDownload(accountId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [summary, setSummary] = useState<Summary | undefined>();
  const [busy, setBusy] = useState(false);
  const download = async (scope: { project?: string; workspace?: string }) => {
    setError(null);
    setSummary(undefined);
    setBusy(true);
    try {
      const parts: string[] = [];
      let cursor: ExportCursor = null;
      do {
        const page: ExportPage = await queryClient.fetchQuery({
          ...trpc.portability.exportPage.queryOptions({ accountId, ...scope, cursor }),
          staleTime: 0,
          gcTime: 0,
        });
        parts.push(page.text);
        cursor = page.next;
      } while (cursor !== null);
      const last = parts.at(-1)?.trimEnd().split('\n').at(-1);
      const url = URL.createObjectURL(new Blob(parts, { type: 'application/jsonl' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `mmw-export-${scope.workspace ?? scope.project ?? 'account'}-${new Date().toISOString().slice(0, 10)}.jsonl`;
      link.click();
      URL.revokeObjectURL(url);
      if (last !== undefined) setSummary(JSON.parse(last) as Summary);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { download, error, summary, busy };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function ExportSection({ accountId, projects }: { accountId: string; projects: string[] }) {
  const [project, setProject] = useState('');
  const [workspace, setWorkspace] = useState('');
  const exporting = useExportDownload(accountId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void exporting.download({
      ...(project === '' ? {} : { project }),
      ...(workspace.trim() === '' ? {} : { workspace: workspace.trim() }),
    });
  };
  const leftOut = exporting.summary?.left_out;
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="export-heading">
      <h2 id="export-heading" style={{ marginTop: 0 }}>
        Export
      </h2>
      <p className="muted">
        A JSON Lines file of the records you may read: every field, older versions, relations, and forgotten records as
        tombstones without their content. What you may not read is left out and counted.
      </p>
      <SelectField label="Project to export" value={project} onChange={(e) => setProject(e.target.value)}>
        <option value="">Every project</option>
        {projects.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <Field
        label="Workspace to export"
        hint="Optional: one workspace only."
        value={workspace}
        maxLength={100}
        onChange={(e) => setWorkspace(e.target.value)}
      />
      <div className="row">
        <button className="primary" type="submit" disabled={exporting.busy}>
          {exporting.busy ? 'Exporting…' : 'Download export'}
        </button>
      </div>
      <ErrorText error={exporting.error} />
      {exporting.summary === undefined || leftOut === undefined ? null : (
        <p role="status">
          Exported {plural(exporting.summary.records, 'record')}, {plural(exporting.summary.tombstones, 'tombstone')} and{' '}
          {plural(exporting.summary.relations, 'relation')}. Left out: {plural(leftOut.records_not_visible, 'record')} you
          may not read, {plural(leftOut.relations_to_left_out_records, 'relation')} to them and{' '}
          {plural(leftOut.references_to_left_out_records, 'reference')} to them.
        </p>
      )}
    </form>
  );
}

function ImportSection({ accountId, projects }: { accountId: string; projects: string[] }) {
  const trpc = useTRPC();
  const [file, setFile] = useState<File | undefined>();
  const [project, setProject] = useState('');
  const [tooLarge, setTooLarge] = useState<string | undefined>();
  const upload = useMutation(trpc.portability.import.mutationOptions());
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (file === undefined) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      setTooLarge(
        `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; the dashboard takes files up to 4 MB. Import larger ones with pnpm mmw import.`,
      );
      return;
    }
    setTooLarge(undefined);
    upload.mutate({ accountId, file: await file.text(), ...(project === '' ? {} : { project }) });
  };
  const report = upload.data;
  return (
    <form className="panel stack" onSubmit={(event) => void submit(event)} aria-labelledby="import-heading">
      <h2 id="import-heading" style={{ marginTop: 0 }}>
        Import
      </h2>
      <p className="muted">
        An export from this or another MMW: each record gets a new id, passes the Memory Guard as a new memory would,
        and keeps its versions, relations and sources. Importing the same file again changes nothing.
      </p>
      <Field
        label="Export file (.jsonl)"
        type="file"
        accept=".jsonl,.json,application/jsonl,application/x-ndjson,text/plain"
        required
        hint="Up to 4 MB here."
        onChange={(e) => setFile(e.target.files?.[0])}
      />
      <SelectField label="Import into project" value={project} onChange={(e) => setProject(e.target.value)}>
        <option value="">The project each record came from (made when missing)</option>
        {projects.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <div className="row">
        <button className="primary" type="submit" disabled={upload.isPending || file === undefined}>
          {upload.isPending ? 'Importing…' : 'Import'}
        </button>
      </div>
      {tooLarge === undefined ? null : (
        <p className="error" role="alert">
          {tooLarge}
        </p>
      )}
      <ErrorText error={upload.error} />
      {report === undefined ? null : (
        <div role="status" className="stack">
          <p>
            Imported {plural(report.imported, 'record')}, {plural(report.tombstones, 'tombstone')} and{' '}
            {plural(report.relations, 'relation')}; {report.alreadyPresent} already present; {plural(report.skipped, 'line')}{' '}
            skipped.
          </p>
          {report.skipped === 0 ? null : (
            <ul>
              {Object.entries(report.skippedByReason).map(([reason, count]) => (
                <li key={reason}>
                  {reason.replaceAll('_', ' ')}: {count}
                </li>
              ))}
              {report.skippedLines.map((line) => (
                <li key={`${line.line}`} className="muted">
                  line {line.line} ({line.id}): {line.reason.replaceAll('_', ' ')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}

export function ExportImportPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const admin = isAdminRole(role);
  const projects = useQuery({ ...trpc.projects.list.queryOptions({ accountId }), enabled: admin });
  const names = (projects.data ?? []).map((project) => project.name);
  return (
    <>
      <PageTitle>Export and import</PageTitle>
      {admin ? (
        <>
          <ExportSection accountId={accountId} projects={names} />
          <ImportSection accountId={accountId} projects={names} />
        </>
      ) : (
        <p className="muted">Only owners and admins export and import the organization's memory.</p>
      )}
    </>
  );
}
