import { AppError } from '@uis/kit';
import { UploadSlots } from './upload-slots';

const refusal = (take: () => unknown) => {
  try {
    take();
  } catch (error) {
    if (error instanceof AppError) return [error.httpStatus, error.message];
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('UploadSlots', () => {
  it('refuses a researcher past their limit with 429, and others still get slots', () => {
    const slots = new UploadSlots({ perUser: 2, total: 8 });
    slots.acquire('ada');
    slots.acquire('ada');
    expect(refusal(() => slots.acquire('ada'))).toEqual([
      429,
      'You already have 2 uploads in progress: wait until one has finished, then try again.',
    ]);
    slots.acquire('bob');
    expect([slots.inProgress('ada'), slots.inProgress('bob'), slots.inProgress()]).toEqual([2, 1, 3]);
  });

  it('says "an upload" when the limit is one', () => {
    const slots = new UploadSlots({ perUser: 1, total: 8 });
    slots.acquire('ada');
    expect(refusal(() => slots.acquire('ada'))[1]).toBe(
      'You already have an upload in progress: wait until one has finished, then try again.',
    );
  });

  it('refuses anyone past the process limit with 429', () => {
    const slots = new UploadSlots({ perUser: 2, total: 3 });
    slots.acquire('ada');
    slots.acquire('ada');
    slots.acquire('bob');
    expect(refusal(() => slots.acquire('cy'))).toEqual([
      429,
      'The server is busy with other uploads right now: try again in a minute.',
    ]);
  });

  it('gives a slot back once, however often release is called', () => {
    const slots = new UploadSlots({ perUser: 1, total: 2 });
    const release = slots.acquire('ada');
    const other = slots.acquire('bob');
    release();
    release();
    expect([slots.inProgress('ada'), slots.inProgress()]).toEqual([0, 1]);
    slots.acquire('ada');
    expect(refusal(() => slots.acquire('cy'))[0]).toBe(429);
    other();
    slots.acquire('cy');
    expect(slots.inProgress()).toBe(2);
  });
});
