import { useEffect, useId, useRef, useState, useSyncExternalStore, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { errorText, fieldErrors, queryClient } from '../trpc.ts';

const mutations = queryClient.getMutationCache();
const subscribeMutations = (listener: () => void) => mutations.subscribe(listener);

/** The failed input check of the latest submitted action, if it was one: what each field got wrong. */
function latestFieldErrors(): Record<string, string> {
  let latest: { submittedAt: number; error: unknown; status: string } | undefined;
  for (const mutation of mutations.getAll()) {
    if (latest === undefined || mutation.state.submittedAt >= latest.submittedAt) latest = mutation.state;
  }
  return latest?.status === 'error' ? fieldErrors(latest.error) : {};
}
let cachedKey = '';
let cached: Record<string, string> = {};
function latestFieldErrorsStable(): Record<string, string> {
  const next = latestFieldErrors();
  const key = JSON.stringify(next);
  if (key !== cachedKey) {
    cachedKey = key;
    cached = next;
  }
  return cached;
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The server's message for this field, shown under it: the last segment of the failed field's path
 * ("name", "email", "factKey") is matched with the input's name, else with the end of its label
 * ("New project name"), so that every form built from Field shows its errors where they belong.
 */
function useFieldError(name: string | undefined, label: string, given: string | undefined): string | undefined {
  const fields = useSyncExternalStore(subscribeMutations, latestFieldErrorsStable);
  if (given !== undefined) return given;
  const matches = (path: string) => {
    const key = squash(path.split('.').at(-1) ?? '');
    if (key === '') return false;
    return name !== undefined ? squash(name) === key : squash(label).endsWith(key);
  };
  const match = Object.entries(fields).find(([path]) => matches(path));
  return match?.[1];
}

export function Field({
  label,
  hint,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string }) {
  const id = useId();
  const problem = useFieldError(input.name, label, error);
  const describedBy = [hint === undefined ? undefined : `${id}-hint`, problem === undefined ? undefined : `${id}-error`]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={describedBy || undefined} aria-invalid={problem === undefined ? undefined : true} {...input} />
      {hint === undefined ? null : (
        <div className="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {problem === undefined ? null : (
        <div className="field-error" id={`${id}-error`}>
          {problem}
        </div>
      )}
    </div>
  );
}

/** "Saved." beside the button that saved, for a few seconds after it did. */
export function Saved({ at }: { at: number | undefined }) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setTimeout(() => tick((n) => n + 1), 4_000);
    return () => clearTimeout(timer);
  }, [at]);
  if (at === undefined || Date.now() - at >= 4_000) return null;
  return (
    <span className="saved" role="status">
      Saved.
    </span>
  );
}

export function SelectField({
  label,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export function ErrorText({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export function StatusBadge({ status }: { status: 'unverified' | 'stale' | 'conflict' }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

export function RoleBadge({ role }: { role: string }) {
  return <span className="badge role">{role}</span>;
}

/** A page's heading, focused when the page opens so that screen readers announce it. */
export function PageTitle({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · MMW`;
    ref.current?.focus();
  }, [children]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** A modal dialog on the native <dialog>: focus is trapped and Escape closes it. */
export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <div className="dialog-body">
        <h2 id={titleId} style={{ marginTop: 0 }}>
          {title}
        </h2>
        {children}
      </div>
      <div className="dialog-actions">{actions}</div>
    </dialog>
  );
}

export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
