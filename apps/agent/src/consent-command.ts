import { join } from 'node:path';
import type { AgentConfig } from './config.ts';
import { hasConsent, recordConsent } from './consent.ts';
import { openPrompt } from './prompt.ts';

function explanation(config: AgentConfig): string {
  return [
    'mmw-agent can upload the session history of your coding assistants on this computer to your MMW',
    'server, so that you can search it later (the search_sessions tool). It reads:',
    `  - Claude Code: ${join(config.claudeDir, 'projects')} (every .jsonl file below it)`,
    `  - Codex:       ${join(config.codexDir, 'sessions')} (every .jsonl file below it)`,
    'What is uploaded: what you and the assistant wrote, and one-line summaries of the tools used',
    '(a command, a file name); not the output of the tools. Secrets (API keys, tokens, passwords)',
    'are replaced with placeholders on this computer before anything is uploaded, and again on the',
    'server. Uploaded sessions are yours: others in your organization do not find them in search;',
    "your organization's owners and admins can see and delete them in the dashboard.",
    'Withdraw at any time with `mmw-agent consent --revoke`: uploads stop at once.',
    '',
  ].join('\n');
}

/** `mmw-agent consent`: consent is recorded only on an explicit y or yes. */
export async function consent(config: AgentConfig): Promise<number> {
  process.stdout.write(explanation(config));
  const prompt = openPrompt();
  const answer = (await prompt.ask('Upload this session history? Type y or yes to agree: ')).toLowerCase();
  prompt.close();
  if (answer === 'y' || answer === 'yes') {
    await recordConsent(config, true);
    process.stdout.write(
      'Consent recorded: session history will be uploaded (run `mmw-agent sync` to upload now).\n',
    );
    return 0;
  }
  if (await hasConsent(config)) {
    process.stdout.write(
      'No change: your earlier consent stands (withdraw it with `mmw-agent consent --revoke`).\n',
    );
    return 0;
  }
  process.stdout.write('No consent recorded: nothing will be uploaded.\n');
  return 0;
}

/** `mmw-agent consent --revoke`: uploads stop at once (every batch asks for consent first). */
export async function revokeConsent(config: AgentConfig): Promise<number> {
  await recordConsent(config, false);
  process.stdout.write('Consent withdrawn: nothing more will be uploaded.\n');
  return 0;
}
