/** Placeholder until this screen lands. */
export function AuthCallbackPage() {
  return <main>AuthCallbackPage</main>;
}
