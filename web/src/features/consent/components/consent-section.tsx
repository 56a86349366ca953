import { useId, useState } from 'react';
import { EDITOR_COUNTS_REFRESH_MS, useApiMutation, useApiQuery } from '../../../api/queries';
import { notify } from '../../../components/ui/toast';
import { RecordTime } from '../../records/components/record-time';
import { WithdrawalsList } from './withdrawals-list';
import '../consent.css';
import {
  CONSENT_SECTION_TEXTS,
  CONSENT_TEXTS,
  agreedText,
  agreedVersionText,
  agreementsText,
  consentSavedText,
  savedVersionText,
} from '../../../i18n/en/consent';
import { COMMON_TEXTS } from '../../../i18n/en/common';

/**
 * The session's consent text in the editor, with who agreed to which version and who
 * withdrew. Saved with its button, not on a pause as the other fields are: every save that changes
 * the text is a new version participants must agree to, so a half-typed text must never be one.
 */
export function ConsentSection({ sessionId }: { sessionId: string }) {
  const fieldId = useId();
  const consent = useApiQuery(
    'getSessionConsent',
    { sessionId },
    { errorText: CONSENT_SECTION_TEXTS.errorGetting, refreshEveryMs: EDITOR_COUNTS_REFRESH_MS },
  );
  const save = useApiMutation('setSessionConsent', { invalidates: ['getSessionConsent'] });
  /** What the researcher typed; null: the saved text, as the server has it. */
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const current = consent.data?.consent ?? null;
  const saved = current?.text ?? '';
  const text = draft ?? saved;
  // The server keeps the text trimmed with LF line breaks: the same words are no change.
  const changed = text.replace(/\r\n?/g, '\n').trim() !== saved;
  const agreedNow = (consent.data?.acceptances ?? []).filter(
    (acceptance) => acceptance.version === current?.version && acceptance.withdrawnAt === null,
  ).length;

  const onSave = () => {
    setError(null);
    save.mutate(
      { sessionId, text },
      {
        onSuccess: (answer) => {
          setDraft(null);
          const version = answer.consent?.version;
          if (answer.changed && version !== undefined)
            notify.success(answer.consent?.text ? consentSavedText(version) : CONSENT_SECTION_TEXTS.removed);
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <section className="editor-section consent-section" aria-labelledby={`${fieldId}-heading`}>
      <div className="editor-section-header">
        <h3 id={`${fieldId}-heading`}>{CONSENT_SECTION_TEXTS.heading}</h3>
        <button
          type="button"
          className="button secondary editor-add"
          onClick={onSave}
          disabled={!changed || save.isPending || consent.isPending}
          aria-busy={save.isPending}
        >
          {CONSENT_SECTION_TEXTS.save}
        </button>
      </div>
      <p className="consent-hint" id={`${fieldId}-hint`}>
        {CONSENT_SECTION_TEXTS.hint}
      </p>
      <label className="visually-hidden" htmlFor={fieldId}>
        {COMMON_TEXTS.consentText}
      </label>
      <textarea
        id={fieldId}
        className="text-input consent-input"
        rows={5}
        value={text}
        placeholder={CONSENT_TEXTS.noConsent}
        aria-describedby={`${fieldId}-hint`}
        aria-invalid={error ? true : undefined}
        disabled={consent.isPending}
        onChange={(event) => setDraft(event.target.value)}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {current && current.text !== '' ? (
        <p className="consent-status">
          {savedVersionText(current.version)}
          <RecordTime iso={current.createdAt} />
          {agreedText(agreedNow)}
        </p>
      ) : null}
      {consent.data && consent.data.acceptances.length > 0 ? (
        <details className="consent-details">
          <summary>{agreementsText(consent.data.acceptances.length)}</summary>
          <ul className="consent-rows" aria-label={CONSENT_TEXTS.agreements}>
            {consent.data.acceptances.map((acceptance) => (
              <li key={`${acceptance.userId}-${acceptance.version}-${acceptance.acceptedAt}`}>
                <span className="consent-who" dir="auto">
                  {acceptance.name} <span className="consent-email">{acceptance.email}</span>
                </span>
                <span>
                  {agreedVersionText(acceptance.version)}
                  <RecordTime iso={acceptance.acceptedAt} />
                  {acceptance.withdrawnAt ? CONSENT_TEXTS.withdrewSince : ''}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <WithdrawalsList sessionId={sessionId} />
    </section>
  );
}
