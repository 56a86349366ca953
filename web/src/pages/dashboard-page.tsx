/** Placeholder until this screen lands. */
export function DashboardPage() {
  return <main>DashboardPage</main>;
}
