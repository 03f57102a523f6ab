export { buildDashboardApp, type DashboardAppOptions } from './dashboard-app.ts';
export { appRouter, type AppRouter } from './router.ts';
export type { InvitationNotifier } from './trpc/context.ts';
export { CSRF_HEADER } from './trpc/trpc.ts';
export { isWebBuildStale, webBuildDir } from './web-build.ts';
export { instrumentDashboard } from './request-metrics.ts';
export { dashboardEnvShape, loadDashboardConfig, type DashboardConfig } from './config.ts';
export { fileTransport, smtpTransport, type MailTransport } from './mail-transport.ts';
