import { PEER_ERROR_TYPES } from '@uis/proto/browser';
import { describe, expect, it } from 'vitest';
import { PEER_ERROR_TEXTS } from './call';

describe('call texts', () => {
  it('has a sentence for every PeerJS error kind of the spec', () => {
    for (const kind of PEER_ERROR_TYPES) {
      expect(PEER_ERROR_TEXTS[kind], kind).toMatch(/^[A-Z].{20,}[.…]$/);
    }
  });
});
