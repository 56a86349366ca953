import { RESEARCHER, UI_TEXTS, helloText } from '@uis/proto/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiMutation } from '../../../api/queries';
import { useAuth, useUser } from '../../../signed-in/auth-context';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { PATHS } from '../../../routes';
import './account-bar.css';
import { ACCOUNT_TEXTS } from '../../../i18n/en/account';
import { GUIDE_TEXTS } from '../../../i18n/en/guide';

/**
 * The top bar of the signed-in home screens (spec section 2): 'Hello, {name}', then delete-account
 * and log-out icons.
 */
export function AccountBar() {
  const user = useUser();
  const auth = useAuth();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleteUser = useApiMutation('deleteUser', { errorText: UI_TEXTS.errorDeletingUser });

  const logOut = async () => {
    await auth.signOut();
    void navigate(PATHS.login, { replace: true });
  };

  const deleteAccount = () =>
    deleteUser.mutate(
      { email: user.email },
      {
        // Its login is revoked already: signing out has the server clear the cookies too.
        onSuccess: () => void logOut(),
        onError: () => setConfirming(false),
      },
    );

  return (
    <header className="account-bar">
      <Icon name="touch_app" className="account-bar-logo" />
      <p className="account-bar-hello">{helloText(user.name)}</p>
      <div className="account-bar-actions">
        {user.type === RESEARCHER ? (
          <IconButton
            icon="help_outline"
            label={GUIDE_TEXTS.openGuide}
            onClick={() => navigate(PATHS.guide)}
          />
        ) : null}
        <IconButton
          icon="person_remove"
          label={ACCOUNT_TEXTS.deleteAccount}
          onClick={() => setConfirming(true)}
        />
        <IconButton icon="logout" label={ACCOUNT_TEXTS.logOut} onClick={() => void logOut()} />
      </div>
      {confirming && (
        <ConfirmDialog
          title={ACCOUNT_TEXTS.deleteHeading}
          message={ACCOUNT_TEXTS.deleteWarning}
          confirmLabel={ACCOUNT_TEXTS.deleteConfirm}
          busy={deleteUser.isPending}
          onConfirm={deleteAccount}
          onCancel={() => setConfirming(false)}
        />
      )}
    </header>
  );
}
