import { Dashboard } from '../features/dashboard/components/dashboard';

/** `/dashboard`: the researcher's groups and sessions. */
export function DashboardPage() {
  return <Dashboard />;
}
