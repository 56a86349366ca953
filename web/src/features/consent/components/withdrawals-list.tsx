import { useApiAllPages } from '../../../api/queries';
import { RecordTime } from '../../records/components/record-time';
import { deletedText } from '../lib/count-text';

/**
 * The participants who withdrew from the session (issue 14): who, when, and how many of their
 * messages and clicks were deleted with it. The researcher's only trace of their part in it.
 */
export function WithdrawalsList({ sessionId }: { sessionId: string }) {
  const withdrawals = useApiAllPages(
    'getSessionWithdrawals',
    { sessionId },
    { errorText: 'Error getting withdrawals' },
  );
  const list = withdrawals.data?.withdrawals ?? [];
  return (
    <div className="consent-withdrawals">
      <h4>Withdrawals</h4>
      {list.length === 0 ? (
        <p className="editor-empty">
          {withdrawals.isPending ? 'Loading withdrawals…' : 'No participant has withdrawn.'}
        </p>
      ) : (
        <ul className="consent-rows" aria-label="Withdrawals">
          {list.map((withdrawal) => (
            <li key={withdrawal.withdrawal_id}>
              <span className="consent-who" dir="auto">
                {withdrawal.name} <span className="consent-email">{withdrawal.email}</span>
              </span>
              <span>
                withdrew <RecordTime iso={withdrawal.time} />: {deletedText(withdrawal)} deleted
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
