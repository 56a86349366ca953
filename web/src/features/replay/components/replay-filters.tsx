import { useId } from 'react';
import { Icon } from '../../../components/ui/icon';
import { KIND_NAMES, REPLAY_KINDS, type ReplayKind } from '../lib/replay-events';
import { KIND_ICONS } from './event-icon';
import { REPLAY_TEXTS } from '../../../i18n/en/replay';

interface ReplayFiltersProps {
  people: readonly string[];
  who: string | null;
  onWho: (who: string | null) => void;
  kinds: ReadonlySet<ReplayKind>;
  onToggleKind: (kind: ReplayKind) => void;
  /** How many of each kind there are on the video (before the filters). */
  counts: Record<ReplayKind, number>;
}

/** The replay's filters: one participant or everyone, and a checkbox per kind of record. */
export function ReplayFilters({ people, who, onWho, kinds, onToggleKind, counts }: ReplayFiltersProps) {
  const id = useId();
  return (
    <div className="replay-filters">
      <div className="replay-filter-who">
        <label htmlFor={`${id}-who`}>{REPLAY_TEXTS.participant}</label>
        <select
          id={`${id}-who`}
          className="text-input"
          value={who ?? ''}
          onChange={(event) => onWho(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">{REPLAY_TEXTS.everyone}</option>
          {people.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="replay-filter-kinds">
        <legend className="visually-hidden">{REPLAY_TEXTS.show}</legend>
        {REPLAY_KINDS.map((kind) => (
          <label key={kind} className={`replay-kind-chip replay-kind-${kind}`}>
            <input type="checkbox" checked={kinds.has(kind)} onChange={() => onToggleKind(kind)} />
            <Icon name={KIND_ICONS[kind]} className="replay-kind-icon" />
            {KIND_NAMES[kind]}
            <span className="replay-kind-count">{counts[kind]}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
