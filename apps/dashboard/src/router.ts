import { accountsRouter } from './routers/accounts.ts';
import { auditRouter } from './routers/audit.ts';
import { authRouter } from './routers/auth.ts';
import { billingRouter } from './routers/billing.ts';
import { handoverRouter } from './routers/handover.ts';
import { keysRouter } from './routers/keys.ts';
import { oauthRouter } from './routers/oauth.ts';
import { invitationsRouter, membersRouter } from './routers/members.ts';
import { portabilityRouter } from './routers/portability.ts';
import { projectsRouter } from './routers/projects.ts';
import { sessionsRouter } from './routers/sessions.ts';
import { visibilityRouter } from './routers/visibility.ts';
import { workspacesRouter } from './routers/workspaces.ts';
import { twoFactorRouter } from './routers/two-factor.ts';
import { router } from './trpc/trpc.ts';

export const appRouter = router({
  auth: authRouter,
  twoFactor: twoFactorRouter,
  accounts: accountsRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  projects: projectsRouter,
  keys: keysRouter,
  oauth: oauthRouter,
  workspaces: workspacesRouter,
  visibility: visibilityRouter,
  handover: handoverRouter,
  audit: auditRouter,
  billing: billingRouter,
  sessions: sessionsRouter,
  portability: portabilityRouter,
});

export type AppRouter = typeof appRouter;
