import { PANEL_IDS_MAX, PANEL_ID_VALUE_MAX_CHARS } from '@uis/proto/browser';
import { describe, expect, it } from 'vitest';
import { panelIdsOf } from './panel-ids';

describe('panelIdsOf', () => {
  it("keeps Prolific's ids as the link carries them", () => {
    expect(panelIdsOf('?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9')).toEqual({
      PROLIFIC_PID: 'abc123',
      STUDY_ID: 's1',
      SESSION_ID: 'x9',
    });
  });

  it('decodes values and accepts URLSearchParams', () => {
    expect(panelIdsOf(new URLSearchParams('workerId=A%201%2Bb&hitId=h'))).toEqual({
      workerId: 'A 1+b',
      hitId: 'h',
    });
  });

  it('leaves out names the server would refuse, empty and overlong values', () => {
    expect(
      panelIdsOf(
        `?1abc=x&_x=y&has-dash=z&${'a'.repeat(41)}=long&empty=&ok=1&big=${'v'.repeat(PANEL_ID_VALUE_MAX_CHARS + 1)}`,
      ),
    ).toEqual({ ok: '1' });
    expect(panelIdsOf(`?edge=${'v'.repeat(PANEL_ID_VALUE_MAX_CHARS)}`).edge).toHaveLength(
      PANEL_ID_VALUE_MAX_CHARS,
    );
  });

  it('keeps the first value of a repeated name', () => {
    expect(panelIdsOf('?PROLIFIC_PID=first&PROLIFIC_PID=second')).toEqual({ PROLIFIC_PID: 'first' });
  });

  it(`keeps at most ${PANEL_IDS_MAX} ids, the first ones`, () => {
    const query = Array.from({ length: PANEL_IDS_MAX + 3 }, (_, index) => `id${index}=${index}`).join('&');
    const ids = panelIdsOf(query);
    expect(Object.keys(ids)).toEqual(Array.from({ length: PANEL_IDS_MAX }, (_, index) => `id${index}`));
  });

  it('finds nothing in an empty query and ignores prototype names', () => {
    expect(panelIdsOf('')).toEqual({});
    const ids = panelIdsOf('?constructor=c&toString=t');
    expect(ids).toEqual({ constructor: 'c', toString: 't' });
  });
});
