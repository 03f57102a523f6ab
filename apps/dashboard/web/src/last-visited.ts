/**
 * What the person looked at last, kept in this browser only: the account that "/" opens and the
 * project each account's pages start with. Storage may be refused (private windows): then nothing is kept.
 */
const ACCOUNT = 'mmw:last-account';
const projectKey = (accountId: string) => `mmw:last-project:${accountId}`;

function read(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not kept: the next visit starts from the first account or project.
  }
}

export const lastAccount = () => read(ACCOUNT);
export const rememberAccount = (accountId: string) => write(ACCOUNT, accountId);
export const lastProject = (accountId: string) => read(projectKey(accountId));
export const rememberProject = (accountId: string, projectId: string) => write(projectKey(accountId), projectId);
