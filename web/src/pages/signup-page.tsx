/** Placeholder until this screen lands. */
export function SignupPage() {
  return <main>SignupPage</main>;
}
