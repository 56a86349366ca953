import { SELECT_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import type { Scope } from '@uis/proto';
import { useMemo } from 'react';
import Select from 'react-select';
import { useApiQuery } from '../../../api/queries';
import { scopeChoices, scopeOfSelection, scopeSelection, type ScopeOption } from '../lib/scope-options';

interface ScopeSelectProps {
  inputId: string;
  value: Scope;
  onChange: (scope: Scope) => void;
}

/** Spec section 2: a multi-select of participants, default Everyone, with the spec's select texts. */
export function ScopeSelect({ inputId, value, onChange }: ScopeSelectProps) {
  const directory = useApiQuery('getAllParticipants', {}, { errorText: UI_TEXTS.errorGettingParticipants });
  const participants = useMemo(() => directory.data?.participants ?? [], [directory.data]);
  const options = useMemo(() => scopeChoices(participants), [participants]);
  const selected = useMemo(() => scopeSelection(value, participants), [value, participants]);

  return (
    <Select<ScopeOption, true>
      inputId={inputId}
      className="scope-select"
      classNamePrefix="scope-select"
      isMulti
      options={options}
      value={selected}
      onChange={(selection) => onChange(scopeOfSelection(selection, value))}
      isLoading={directory.isLoading}
      loadingMessage={() => SELECT_TEXTS.loading}
      noOptionsMessage={() => SELECT_TEXTS.noOptions}
      placeholder={SELECT_TEXTS.placeholder}
      closeMenuOnSelect={false}
      menuPlacement="auto"
      styles={{
        control: (base, state) => ({
          ...base,
          minHeight: 40,
          borderColor: state.isFocused ? 'var(--color-primary)' : 'var(--color-border)',
          boxShadow: state.isFocused ? '0 0 0 1px var(--color-primary)' : 'none',
          borderRadius: 'var(--radius)',
        }),
        menu: (base) => ({ ...base, zIndex: 20 }),
      }}
    />
  );
}
