import { UI_TEXTS } from '@uis/proto';

/** Stands in for every screen until the web app's screens land (issue 5). */
export function PlaceholderPage() {
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', lineHeight: 1.5 }}
    >
      <h1>User Interaction Simulator</h1>
      <p>The API is running. The screens of the web app are on their way.</p>
      <p style={{ color: '#555' }}>{UI_TEXTS.magicLinkSent}</p>
    </main>
  );
}
