import { useEffect, useState, type ReactNode } from 'react';
import { Dialog, ErrorText, Field } from './ui.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in plain words: shown before anything is done. */
  children: ReactNode;
  confirmLabel: string;
  /** For what cannot be undone: the person types this text before the button works. */
  typeToConfirm?: string | undefined;
  danger?: boolean;
  pending?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action that matters; with typeToConfirm, before one that cannot be undone. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  typeToConfirm,
  danger = true,
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);
  const matches = typeToConfirm === undefined || typed.trim() === typeToConfirm;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={danger ? 'danger' : 'primary'} disabled={pending || !matches} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="stack">
        {children}
        {typeToConfirm === undefined ? null : (
          <Field
            label={`Type ${typeToConfirm} to confirm`}
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        )}
        <ErrorText error={error} />
      </div>
    </Dialog>
  );
}

/** What happened, said after the action: a polite live region next to what was done. */
export function DoneNotice({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <p className="notice" role="status" aria-live="polite">
      {children}
    </p>
  );
}
