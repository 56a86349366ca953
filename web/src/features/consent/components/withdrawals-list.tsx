import { useApiAllPages } from '../../../api/queries';
import { RecordTime } from '../../records/components/record-time';
import { deletedText } from '../../../i18n/en/common';
import { CONSENT_TEXTS, withdrawalDeletedText } from '../../../i18n/en/consent';

/**
 * The participants who withdrew from the session: who, when, and how many of their
 * messages and clicks were deleted with it. The researcher's only trace of their part in it.
 */
export function WithdrawalsList({ sessionId }: { sessionId: string }) {
  const withdrawals = useApiAllPages(
    'getSessionWithdrawals',
    { sessionId },
    { errorText: CONSENT_TEXTS.errorGettingWithdrawals },
  );
  const list = withdrawals.data?.withdrawals ?? [];
  return (
    <div className="consent-withdrawals">
      <h4>{CONSENT_TEXTS.withdrawals}</h4>
      {list.length === 0 ? (
        <p className="editor-empty">
          {withdrawals.isPending ? CONSENT_TEXTS.loadingWithdrawals : CONSENT_TEXTS.noWithdrawals}
        </p>
      ) : (
        <ul className="consent-rows" aria-label={CONSENT_TEXTS.withdrawals}>
          {list.map((withdrawal) => (
            <li key={withdrawal.withdrawal_id}>
              <span className="consent-who" dir="auto">
                {withdrawal.name} <span className="consent-email">{withdrawal.email}</span>
              </span>
              <span>
                {CONSENT_TEXTS.withdrew}
                <RecordTime iso={withdrawal.time} />
                {withdrawalDeletedText(deletedText(withdrawal))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
