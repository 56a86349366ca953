import { UI_TEXTS, formatClockTime } from '@uis/proto/browser';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { firstFreeSecond } from '../lib/prompt-times';
import { EditorListSection } from './editor-list-section';
import { PromptItem } from './prompt-item';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';
import { RECORD_TABLE_TEXTS } from '../../../i18n/en/records';

/** The session's timed prompts (spec section 2): text, time and duration, add and delete. */
export function PromptsList({ sessionId }: { sessionId: string }) {
  const prompts = useApiQuery('getPrompts', { sessionId }, { errorText: UI_TEXTS.errorFetchingPrompts });
  const addPrompt = useApiMutation('addPrompt', {
    errorText: UI_TEXTS.errorAddingPrompt,
    invalidates: ['getPrompts'],
  });
  const list = prompts.data?.prompts ?? [];

  return (
    <EditorListSection
      title={EDITOR_TEXTS.prompts}
      noun={EDITOR_TEXTS.promptNoun}
      onAdd={() => addPrompt.mutate({ sessionId, time: formatClockTime(firstFreeSecond(list)) })}
      adding={addPrompt.isPending || prompts.isLoading}
      loading={prompts.isLoading}
    >
      {list.length > 0 ? (
        <>
          <div className="editor-prompt-columns" aria-hidden="true">
            <span>{RECORD_TABLE_TEXTS.time}</span>
            <span>{COMMON_TEXTS.durationSeconds}</span>
            <span>{COMMON_TEXTS.prompt}</span>
          </div>
          <ul className="editor-prompts">
            {list.map((prompt) => (
              <PromptItem key={prompt.prompt_id} prompt={prompt} />
            ))}
          </ul>
        </>
      ) : null}
    </EditorListSection>
  );
}
