/** Placeholder until this screen lands. */
export function LoginPage() {
  return <main>LoginPage</main>;
}
