import { PEER_ID_PATTERN, UI_TEXTS, helloText, processingText, reactionText } from '../src/constants';

/** Spec section 8, every toast text, verbatim (spelling included). */
const SPEC_TOASTS = [
  'Error getting session info',
  'Error getting participants',
  'Error getting actions',
  'Error adding action',
  'Error editting action',
  'Error deleting action',
  'Error getting video info',
  'Error uploading video',
  'Error deleting video',
  'Error fetching prompts',
  'Error adding prompt',
  'Error deleting prompt',
  'Error editing prompt',
  'Error updating session info',
  'Error deleting user',
  'Error signing up.',
  'Error sending magic link',
  'Internal error',
  'Error getting sessions',
  'Error fetching messages',
  'Error editting message',
  'Error adding message',
  'Error deleting message',
  'Error fetching pixels',
  'Error adding pixel',
  'Error deleting pixel',
  'Error fetching chat messages',
  'Failed to get local stream',
  'Authentication failed. Please try again.',
  'An error occurred. Please try again.',
];

describe('peer ids', () => {
  it('matches peer ids as the spec describes', () => {
    for (const ok of ['', 'a', 'A1', 'a b', 'a_b', 'a-b', 'a-b_c d'])
      expect(PEER_ID_PATTERN.test(ok)).toBe(true);
    for (const bad of [' ', 'a ', ' a', 'a__b', 'a- b', 'a.b', 'ä'])
      expect(PEER_ID_PATTERN.test(bad)).toBe(false);
  });
});

describe('UI texts', () => {
  it('holds every toast of spec section 8 verbatim, and nothing else but the login success', () => {
    const texts = Object.values(UI_TEXTS);
    expect(texts.filter((t) => t !== UI_TEXTS.magicLinkSent).sort()).toEqual([...SPEC_TOASTS].sort());
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('has the login success text', () => {
    expect(UI_TEXTS.magicLinkSent).toBe(
      'Magic link sent! Please check your email and click the link to proceed',
    );
  });

  it('builds the templated texts', () => {
    expect(processingText(45)).toBe('Processing 45%');
    expect(helloText('Ada')).toBe('Hello, Ada');
    expect(reactionText('Ada', 'Like')).toBe('Ada reacted with Like');
  });
});
