export interface AccountPageProps {
  accountId: string;
  role: 'owner' | 'admin' | 'member';
  kind: 'personal' | 'organization';
}

export function isAdminRole(role: AccountPageProps['role']): boolean {
  return role === 'owner' || role === 'admin';
}
