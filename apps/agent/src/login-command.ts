import type { AgentConfig } from './config.ts';
import { removeCredentials, saveCredentials } from './credentials.ts';
import { openPrompt } from './prompt.ts';

const KEY_PATTERN = /^mmw_[A-Za-z0-9_-]+$/;

/** `mmw-agent login`: asks for the endpoint and the key and keeps them readable by the user alone. */
export async function login(config: AgentConfig): Promise<number> {
  const prompt = openPrompt();
  try {
    return await askAndSave(config, (question) => prompt.ask(question));
  } finally {
    prompt.close();
  }
}

async function askAndSave(config: AgentConfig, ask: (question: string) => Promise<string>): Promise<number> {
  const url = await ask('MMW endpoint (e.g. https://mmw.example.com/mcp): ');
  let parsed: URL;
  try {
    parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not http');
  } catch {
    process.stderr.write('That is not an http(s) URL; nothing was saved.\n');
    return 1;
  }
  const key = await ask('MMW key (mmw_…): ');
  if (!KEY_PATTERN.test(key)) {
    process.stderr.write('That is not an MMW key (it starts with mmw_); nothing was saved.\n');
    return 1;
  }
  const path = await saveCredentials(config, { url: parsed.toString(), key });
  process.stdout.write(`Saved to ${path} (readable by you alone).\n`);
  return 0;
}

/** `mmw-agent logout`: forgets the saved endpoint and key. */
export async function logout(config: AgentConfig): Promise<number> {
  await removeCredentials(config);
  process.stdout.write('Logged out: the saved endpoint and key were removed.\n');
  return 0;
}
