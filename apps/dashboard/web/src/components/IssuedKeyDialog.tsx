import { useState } from 'react';
import { Dialog } from './ui.tsx';

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true));
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export interface IssuedKey {
  key: string;
  claudeCommand: string;
  summary: { prefix: string };
}

/** The one time a whole key is shown: on issue, or when a colleague accepts a key request. */
export function IssuedKeyDialog({ issued, onClose }: { issued: IssuedKey | undefined; onClose: () => void }) {
  return (
    <Dialog
      open={issued !== undefined}
      title="Your new key"
      onClose={onClose}
      actions={
        <button className="primary" type="button" onClick={onClose}>
          I have copied it
        </button>
      }
    >
      {issued ? (
        <div className="stack">
          <p>
            This is the only time the key is shown. Copy it now; MMW keeps only its prefix <code>{issued.summary.prefix}</code>.
          </p>
          <div className="field">
            <label htmlFor="issued-key">Key</label>
            <pre id="issued-key" className="mono" data-testid="issued-key">
              {issued.key}
            </pre>
          </div>
          <CopyButton text={issued.key} label="Copy key" />
          <div className="field">
            <label htmlFor="issued-command">Add MMW to Claude Code</label>
            <pre id="issued-command" className="mono" data-testid="claude-command">
              {issued.claudeCommand}
            </pre>
          </div>
          <CopyButton text={issued.claudeCommand} label="Copy command" />
        </div>
      ) : null}
    </Dialog>
  );
}
