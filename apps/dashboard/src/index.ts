export { buildDashboardApp, type DashboardAppOptions } from './dashboard-app.ts';
