import { UI_TEXTS, formatClockTime } from '@uis/proto/browser';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { firstFreeSecond } from '../lib/prompt-times';
import { PromptItem } from './prompt-item';

/** The session's timed prompts (spec section 2): text, time and duration, add and delete. */
export function PromptsList({ sessionId }: { sessionId: string }) {
  const prompts = useApiQuery('getPrompts', { sessionId }, { errorText: UI_TEXTS.errorFetchingPrompts });
  const addPrompt = useApiMutation('addPrompt', {
    errorText: UI_TEXTS.errorAddingPrompt,
    invalidates: ['getPrompts'],
  });
  const list = prompts.data?.prompts ?? [];

  return (
    <section className="editor-section" aria-labelledby="editor-prompts-heading">
      <div className="editor-section-header">
        <h3 id="editor-prompts-heading">Prompts</h3>
        <button
          type="button"
          className="button secondary editor-add"
          disabled={addPrompt.isPending || prompts.isLoading}
          onClick={() => addPrompt.mutate({ sessionId, time: formatClockTime(firstFreeSecond(list)) })}
        >
          <Icon name="add" /> Add prompt
        </button>
      </div>
      {list.length > 0 ? (
        <>
          <div className="editor-prompt-columns" aria-hidden="true">
            <span>Time</span>
            <span>Duration (s)</span>
            <span>Prompt</span>
          </div>
          <ul className="editor-prompts">
            {list.map((prompt) => (
              <PromptItem key={prompt.prompt_id} prompt={prompt} />
            ))}
          </ul>
        </>
      ) : (
        <p className="editor-empty">{prompts.isLoading ? 'Loading prompts…' : 'No prompts yet.'}</p>
      )}
    </section>
  );
}
