import { loadAgentConfig } from './config.ts';
import { consent, revokeConsent } from './consent-command.ts';
import { login, logout } from './login-command.ts';
import { serveStdio } from './stdio-server.ts';
import { sync } from './sync-command.ts';
import { AGENT_VERSION } from './version.ts';

const usage = `mmw-agent ${AGENT_VERSION}: MMW's local helper.
  mmw-agent                    a stdio MCP server forwarding to MMW_URL with MMW_KEY
  mmw-agent login | logout     save or remove the endpoint and key
  mmw-agent consent [--revoke] allow (or withdraw) uploading Claude Code and Codex session history
  mmw-agent sync               upload session history once
`;

async function run(args: string[]): Promise<number | undefined> {
  const config = loadAgentConfig();
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
      // A fault of the server or of one call is answered as a tool error; nothing ends the server
      // but its client closing standard input.
      process.on('unhandledRejection', (error) =>
        process.stderr.write(`mmw-agent: ${error instanceof Error ? error.message : 'unexpected error'}\n`),
      );
      await serveStdio(config);
      return undefined;
    case 'login':
      return login(config);
    case 'logout':
      return logout(config);
    case 'consent':
      return rest.includes('--revoke') ? revokeConsent(config) : consent(config);
    case 'sync':
      return sync(config);
    case '--version':
      process.stdout.write(`${AGENT_VERSION}\n`);
      return 0;
    case '--help':
    case 'help':
      process.stdout.write(usage);
      return 0;
    default:
      process.stderr.write(`unknown command: ${command}\n${usage}`);
      return 2;
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mmw-agent: ${error instanceof Error ? error.message : 'unexpected error'}\n`);
    process.exitCode = 1;
  },
);
