import { completionUrlFor } from '../src';

describe('completionUrlFor', () => {
  it("fills the participant's panel ids in, encoded, typed or percent-encoded", () => {
    const ids = { PROLIFIC_PID: '5f1a b&c', STUDY_ID: 's1' };
    expect(
      completionUrlFor('https://survey.example.org/q?pid={{PROLIFIC_PID}}&study={{STUDY_ID}}', ids),
    ).toBe('https://survey.example.org/q?pid=5f1a%20b%26c&study=s1');
    expect(
      completionUrlFor('https://survey.example.org/%7B%7BSTUDY_ID%7D%7D/%7b%7bPROLIFIC_PID%7d%7d', ids),
    ).toBe('https://survey.example.org/s1/5f1a%20b%26c');
  });

  it('empties a placeholder the participant has no id for, and leaves other text alone', () => {
    expect(completionUrlFor('https://x.example/?pid={{PROLIFIC_PID}}&a={b}&c={{}}', {})).toBe(
      'https://x.example/?pid=&a={b}&c={{}}',
    );
    expect(
      completionUrlFor('https://app.prolific.com/submissions/complete?cc=C1', { PROLIFIC_PID: 'p' }),
    ).toBe('https://app.prolific.com/submissions/complete?cc=C1');
  });
});
