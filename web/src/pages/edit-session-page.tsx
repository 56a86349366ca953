/** Placeholder until this screen lands. */
export function EditSessionPage() {
  return <main>EditSessionPage</main>;
}
