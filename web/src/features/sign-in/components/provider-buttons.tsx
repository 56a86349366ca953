import { SIGN_IN_PROVIDER_MESSAGES, type SignInProviderMessage } from '@uis/proto/browser';
import type { SignInProvider } from '@uis/proto';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { call, routeUrl } from '../../../api/client';
import { rememberReturnPath } from '../../../signed-in/return-path';
import { Icon } from '../../../components/ui/icon';
import { expectProviderSignIn } from '../expected-sign-in';
import { SIGN_IN_TEXTS } from '../../../i18n/en/sign-in';

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
  const said =
    code && code in SIGN_IN_PROVIDER_MESSAGES
      ? SIGN_IN_PROVIDER_MESSAGES[code as SignInProviderMessage]
      : null;
  // A link mailed to prove the address is a step of the sign-in, not a failure.
  const mailed = code === 'linkSent';

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
      {said && (
        <p className={`auth-status${mailed ? '' : ' warning'}`} role={mailed ? 'status' : 'alert'}>
          <Icon name={mailed ? 'mark_email_read' : 'error_outline'} size={20} />
          <span>{said}</span>
        </p>
      )}
      {providers.length > 0 && (
        <div className="auth-providers">
          <p className="auth-providers-or">
            <span>{SIGN_IN_TEXTS.or}</span>
          </p>
          {providers.map((provider) => (
            <a
              key={provider.id}
              className="button secondary auth-provider"
              href={routeUrl('oidcStart', { provider: provider.id })}
              onClick={() => {
                expectProviderSignIn();
                if (returnPath) rememberReturnPath(returnPath);
              }}
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
