import { SIGN_IN_PROVIDER_ERRORS, type SignInProviderError } from '@uis/proto/browser';
import type { SignInProvider } from '@uis/proto';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { call, routeUrl } from '../../../api/client';
import { rememberReturnPath } from '../../../auth/return-path';
import { Icon } from '../../../components/ui/icon';

/**
 * Under the e-mail form: a button per OpenID Connect provider the deployment configured (Google, a
 * university's), each a plain link, since the sign-in is a browser navigation to the provider and
 * back; and, when one failed, why (the `signInError` the callback sent the browser back with). The
 * provider's round trip leaves the app, so the page to return to waits in this browser's storage.
 */
export function ProviderButtons({ returnPath = null }: { returnPath?: string | null }) {
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  const [params] = useSearchParams();
  const code = params.get('signInError');
  const failure =
    code && code in SIGN_IN_PROVIDER_ERRORS ? SIGN_IN_PROVIDER_ERRORS[code as SignInProviderError] : null;

  useEffect(() => {
    let active = true;
    // No providers (or no answer): the e-mail form is the way in, as it always is.
    call('getSignInProviders', {})
      .then((answer) => active && setProviders(answer.providers))
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);

  return (
    <>
      {failure && (
        <p className="auth-status warning" role="alert">
          <Icon name="error_outline" size={20} />
          <span>{failure}</span>
        </p>
      )}
      {providers.length > 0 && (
        <div className="auth-providers">
          <p className="auth-providers-or">
            <span>or</span>
          </p>
          {providers.map((provider) => (
            <a
              key={provider.id}
              className="button secondary auth-provider"
              href={routeUrl('oidcStart', { provider: provider.id })}
              onClick={returnPath ? () => rememberReturnPath(returnPath) : undefined}
            >
              <Icon name={provider.id === 'google' ? 'account_circle' : 'school'} size={20} />
              {provider.label}
            </a>
          ))}
        </div>
      )}
    </>
  );
}
