import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useApiMutation } from '../../../api/queries';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { notify } from '../../../components/ui/toast';
import { deletedText } from '../../../i18n/en/common';
import '../consent.css';
import {
  WITHDRAW_TEXTS,
  withdrawFromText,
  withdrawHeadingText,
  withdrewText,
} from '../../../i18n/en/participant-sessions';

/**
 * A participant withdraws from one of their sessions, after a question that says what
 * is deleted. The list is refetched: the session leaves it (unless it is open to everyone).
 */
export function WithdrawButton({ sessionId, title }: { sessionId: string; title: string }) {
  const [asking, setAsking] = useState(false);
  const withdraw = useApiMutation('withdrawFromSession', {
    errorText: WITHDRAW_TEXTS.failed,
    invalidates: ['getParticipantSessions'],
  });

  const confirm = () =>
    withdraw.mutate(
      { sessionId },
      {
        onSuccess: ({ withdrawal }) => {
          setAsking(false);
          notify.success(withdrewText(title, deletedText(withdrawal)));
        },
        onError: () => setAsking(false),
      },
    );

  return (
    <>
      <button
        type="button"
        className="session-withdraw"
        onClick={() => setAsking(true)}
        aria-label={withdrawFromText(title)}
      >
        {WITHDRAW_TEXTS.button}
      </button>
      {/* In the page's body, not the card: a hovered card is transformed, which would make the
          dialog's fixed backdrop move with it. */}
      {asking
        ? createPortal(
            <ConfirmDialog
              title={withdrawHeadingText(title)}
              message={WITHDRAW_TEXTS.message}
              confirmLabel={WITHDRAW_TEXTS.confirm}
              busy={withdraw.isPending}
              onConfirm={confirm}
              onCancel={() => setAsking(false)}
            />,
            document.body,
          )
        : null}
    </>
  );
}
