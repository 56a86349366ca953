import { SCREEN_TEXTS, USER_TYPES, type UserType } from '@uis/proto/browser';
import { Icon } from '../../../components/ui/icon';
import './user-type-step.css';

export const USER_TYPE_LABELS: Record<UserType, string> = {
  researcher: 'Researcher',
  participant: 'Participant',
};

const DETAILS: Record<UserType, { icon: string; text: string }> = {
  researcher: { icon: 'science', text: 'Create groups and sessions, run them and review what was recorded.' },
  participant: { icon: 'person', text: 'Join the sessions a researcher invites you to.' },
};

/** 'Select User Type': the first step of sign-up. */
export function UserTypeStep({ onSelect }: { onSelect: (type: UserType) => void }) {
  return (
    <section className="user-type-step" aria-labelledby="user-type-heading">
      <h2 id="user-type-heading" className="user-type-heading">
        {SCREEN_TEXTS.selectUserType}
      </h2>
      <div className="user-type-options">
        {USER_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            className="user-type-option"
            onClick={() => onSelect(type)}
            aria-labelledby={`user-type-${type}`}
            aria-describedby={`user-type-${type}-text`}
          >
            <Icon name={DETAILS[type].icon} size={28} className="user-type-icon" />
            <span className="user-type-text">
              <span id={`user-type-${type}`} className="user-type-name">
                {USER_TYPE_LABELS[type]}
              </span>
              <span id={`user-type-${type}-text`} className="user-type-detail">
                {DETAILS[type].text}
              </span>
            </span>
            <Icon name="chevron_right" className="user-type-chevron" />
          </button>
        ))}
      </div>
    </section>
  );
}
