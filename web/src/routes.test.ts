import { describe, expect, it } from 'vitest';
import { stripLeadingColon } from './routes';

describe('stripLeadingColon', () => {
  it('removes one leading colon and nothing else', () => {
    expect(stripLeadingColon(':3f2a')).toBe('3f2a');
    expect(stripLeadingColon('3f2a')).toBe('3f2a');
    expect(stripLeadingColon('::3f2a')).toBe(':3f2a');
    expect(stripLeadingColon('a:b')).toBe('a:b');
  });
});
