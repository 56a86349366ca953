/** Placeholder until this screen lands. */
export function SessionsPage() {
  return <main>SessionsPage</main>;
}
