import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTRPC } from '../trpc.ts';
import { CopyButton } from './CopyButton.tsx';
import { ErrorText } from './ui.tsx';
import './connect-panel.css';

/** The check polls every 3 s while nothing has arrived, and stops after 10 minutes (a button starts it again). */
const POLL_MS = 3000;
const POLL_FOR_MS = 10 * 60 * 1000;

type Tab = 'claude-code' | 'cursor' | 'codex' | 'claude-ai' | 'chatgpt';
const tabs: Array<[Tab, string]> = [
  ['claude-code', 'Claude Code'],
  ['cursor', 'Cursor'],
  ['codex', 'Codex'],
  ['claude-ai', 'Claude.ai'],
  ['chatgpt', 'ChatGPT'],
];

function Snippet({ id, label, text }: { id: string; label: string; text: string }) {
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <pre id={id} className="mono" data-testid={id}>
          {text}
        </pre>
      </div>
      <CopyButton text={text} label="Copy" />
    </div>
  );
}

function Setup({ tab, url, apiKey, id }: { tab: Tab; url: string; apiKey: string; id: string }) {
  const header = `Authorization: Bearer ${apiKey}`;
  switch (tab) {
    case 'claude-code':
      return <Snippet id={`${id}-claude-code`} label="Run in a terminal" text={`claude mcp add --transport http mmw ${url} --header "${header}"`} />;
    case 'cursor':
      return (
        <Snippet
          id={`${id}-cursor`}
          label="Add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project)"
          text={JSON.stringify({ mcpServers: { mmw: { url, headers: { Authorization: `Bearer ${apiKey}` } } } }, null, 2)}
        />
      );
    case 'codex':
      return (
        <Snippet
          id={`${id}-codex`}
          label="Add to ~/.codex/config.toml"
          text={`[mcp_servers.mmw]\nurl = "${url}"\nhttp_headers = { "Authorization" = "Bearer ${apiKey}" }`}
        />
      );
    case 'claude-ai':
      return (
        <div className="stack">
          <p>
            In Claude.ai open <strong>Settings → Connectors → Add custom connector</strong>, name it MMW and paste the MCP URL below. Claude
            asks you to sign in to MMW and choose the project; no key is needed.
          </p>
          <Snippet id={`${id}-claude-ai`} label="MCP URL" text={url} />
        </div>
      );
    case 'chatgpt':
      return (
        <div className="stack">
          <p>
            In ChatGPT open <strong>Settings → Connectors</strong> (developer mode on), <strong>Create</strong> a custom connector named MMW,
            paste the MCP URL below and choose OAuth. ChatGPT asks you to sign in to MMW and choose the project.
          </p>
          <Snippet id={`${id}-chatgpt`} label="MCP URL" text={url} />
        </div>
      );
  }
}

/** Whether the account's first memory has arrived, asked again every few seconds until it has. */
function useFirstMemory(accountId: string) {
  const trpc = useTRPC();
  const [since, setSince] = useState(() => Date.now());
  const connection = useQuery({
    ...trpc.accounts.connection.queryOptions({ accountId }),
    refetchInterval: (query) => (query.state.data?.received === true || Date.now() - since > POLL_FOR_MS ? false : POLL_MS),
    refetchIntervalInBackground: false,
  });
  const stopped = connection.data?.received !== true && Date.now() - since > POLL_FOR_MS;
  return { connection, stopped, restart: () => setSince(Date.now()) };
}

/**
 * The first screen's "Connect" panel: the endpoint, a key issued on the spot, the setup of each
 * assistant, and a live check that turns green when the first memory arrives.
 */
export function ConnectPanel({ accountId, projectId, projectName }: { accountId: string; projectId: string | undefined; projectName: string | undefined }) {
  const trpc = useTRPC();
  const id = useId().replace(/:/g, '');
  const [tab, setTab] = useState<Tab>('claude-code');
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const { connection, stopped, restart } = useFirstMemory(accountId);
  const issue = useMutation(trpc.keys.issue.mutationOptions());
  const received = connection.data?.received === true;
  const url = connection.data?.mcpUrl ?? '';
  const key = issue.data?.key ?? 'mmw_…';
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    const entry = tabs[next];
    if (entry) setTab(entry[0]);
    tabRefs.current[next]?.focus();
  };
  return (
    <section className="panel stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
        Connect your assistant
      </h2>
      <p className="muted">
        MMW is memory your AI assistants share over MCP. Give an assistant the endpoint and a key{projectName ? ` for project ${projectName}` : ''}, then
        ask it to remember something.
      </p>
      <div className="connect-endpoint">
        <div className="field" style={{ flex: '1 1 16rem' }}>
          <label htmlFor={`${id}-url`}>MCP endpoint</label>
          <pre id={`${id}-url`} className="mono" data-testid="mcp-url">
            {url}
          </pre>
        </div>
        <CopyButton text={url} label="Copy endpoint" />
      </div>
      <div className="row" style={{ alignItems: 'center' }}>
        {issue.data ? (
          <div className="stack" style={{ flex: '1 1 100%' }}>
            <p>
              Your key <code>{issue.data.summary.prefix}…</code> is in the setup below. It is shown only now: copy it before you leave this page.
            </p>
            <div className="connect-endpoint">
              <pre className="mono" data-testid="connect-key">
                {issue.data.key}
              </pre>
              <CopyButton text={issue.data.key} label="Copy key" />
            </div>
          </div>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={projectId === undefined || issue.isPending}
            onClick={() => projectId && issue.mutate({ accountId, projectId, name: 'first key' })}
          >
            {issue.isPending ? 'Issuing…' : 'Issue a key'}
          </button>
        )}
        <ErrorText error={issue.error} />
      </div>
      <div role="tablist" aria-label="Assistant" className="connect-tabs">
        {tabs.map(([value, label], index) => (
          <button
            key={value}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${value}`}
            aria-selected={tab === value}
            aria-controls={`${id}-panel`}
            tabIndex={tab === value ? 0 : -1}
            onClick={() => setTab(value)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className="connect-tab-panel">
        <Setup tab={tab} url={url} apiKey={key} id={id} />
      </div>
      <div className={`connect-check${received ? ' received' : ''}`} role="status" aria-live="polite" data-testid="first-memory">
        <span className="dot" aria-hidden="true" />
        {received ? (
          <strong>First memory received. Your assistant is connected.</strong>
        ) : stopped ? (
          <>
            <span>No memory yet.</span>
            <button type="button" onClick={restart}>
              Check again
            </button>
          </>
        ) : (
          <span>Waiting for the first memory… ask your assistant to “remember” something.</span>
        )}
      </div>
    </section>
  );
}
