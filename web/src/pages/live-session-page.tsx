/** Placeholder until this screen lands. */
export function LiveSessionPage() {
  return <main>LiveSessionPage</main>;
}
