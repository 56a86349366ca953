import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DELETION_TEXTS, groupLossText, sessionLossText } from '../../../i18n/en/dashboard';
import { useDeletionLoss, type DeletionLossState, type DeletionTarget } from '../hooks/use-deletion-loss';

interface ConfirmDeletionProps {
  target: DeletionTarget;
  heading: string;
  confirmLabel: string;
  /** The deletion is on its way. */
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

function lossText(target: DeletionTarget, loss: DeletionLossState): string {
  if (loss.state === 'counting') return DELETION_TEXTS.counting;
  if (loss.state === 'unknown') return `${DELETION_TEXTS.notCounted} ${DELETION_TEXTS.cannotUndo}`;
  return target.kind === 'group'
    ? groupLossText(loss.loss)
    : sessionLossText(loss.loss, loss.videoName, target.session.type === 'video');
}

/**
 * Asks before a session or a group is deleted, saying what goes with it: its messages and clicks,
 * and its uploaded videos. Delete waits for the counts (or for knowing they cannot be had).
 */
export function ConfirmDeletion({
  target,
  heading,
  confirmLabel,
  deleting,
  onConfirm,
  onCancel,
}: ConfirmDeletionProps) {
  const loss = useDeletionLoss(target);
  return (
    <ConfirmDialog
      title={heading}
      message={lossText(target, loss)}
      confirmLabel={confirmLabel}
      busy={deleting || loss.state === 'counting'}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
