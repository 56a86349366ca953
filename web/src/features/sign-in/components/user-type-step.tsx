import { SCREEN_TEXTS, USER_TYPES, type UserType } from '@uis/proto/browser';
import { Icon } from '../../../components/ui/icon';
import './user-type-step.css';
import { USER_TYPE_DETAILS, USER_TYPE_LABELS } from '../../../i18n/en/sign-up';

const USER_TYPE_ICONS: Record<UserType, string> = { researcher: 'science', participant: 'person' };

/**
 * 'Select User Type': the first step of sign-up. Each option's accessible name is its visible text,
 * the type and what it is for (WCAG 2.5.3, label in name): speech users say what they see.
 */
export function UserTypeStep({ onSelect }: { onSelect: (type: UserType) => void }) {
  return (
    <section className="user-type-step" aria-labelledby="user-type-heading">
      <h2 id="user-type-heading" className="user-type-heading">
        {SCREEN_TEXTS.selectUserType}
      </h2>
      <div className="user-type-options">
        {USER_TYPES.map((type) => (
          <button key={type} type="button" className="user-type-option" onClick={() => onSelect(type)}>
            <Icon name={USER_TYPE_ICONS[type]} size={28} className="user-type-icon" />
            <span className="user-type-text">
              <span className="user-type-name">{USER_TYPE_LABELS[type]}</span>
              <span className="user-type-detail">{USER_TYPE_DETAILS[type]}</span>
            </span>
            <Icon name="chevron_right" className="user-type-chevron" />
          </button>
        ))}
      </div>
    </section>
  );
}
