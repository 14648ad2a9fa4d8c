import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { ValidationObserver, type FieldFlags, type FieldOptions, type ObserverSnapshot } from './observer'

/** A form-level validation observer that lives as long as the component and re-renders it on change. */
export function useValidationObserver(observer?: ValidationObserver): ValidationObserver {
  const [own] = useState(() => observer ?? new ValidationObserver())
  useSyncExternalStore(own.subscribe, own.getSnapshot, own.getSnapshot)
  return own
}

/** The observer's current snapshot (fields, aggregated flags, messages, values); re-renders on change. */
export function useObserverState(observer: ValidationObserver): ObserverSnapshot {
  return useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot)
}

export interface FieldBinding {
  value: unknown
  error: string
  flags: FieldFlags
  required: boolean
  onChange: (valueOrEvent: unknown) => void
  onBlur: () => void
}

const fromEvent = (valueOrEvent: unknown): unknown => {
  if (valueOrEvent && typeof valueOrEvent === 'object' && 'target' in valueOrEvent) {
    const target = (valueOrEvent as { target: { value?: unknown; checked?: unknown; type?: string } }).target
    if (target && typeof target === 'object')
      return target.type === 'checkbox' ? target.checked : target.value
  }
  return valueOrEvent
}

/** Registers a field with the observer and answers the props to bind to an input. */
export function useField(
  observer: ValidationObserver,
  name: string,
  options: FieldOptions = {},
): FieldBinding {
  const { rules, label, disabled } = options
  const [initialValue] = useState(options.initialValue)
  const rulesRef = useRef(rules)
  rulesRef.current = rules
  useEffect(() => {
    observer.register(name, { rules: rulesRef.current ?? [], label, disabled, initialValue })
  }, [observer, name, label, disabled, initialValue])
  useEffect(() => observer.setRules(name, rules ?? []))
  useEffect(() => () => observer.unregister(name), [observer, name])
  const snapshot = useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot)
  const state = snapshot.fields[name]
  const onChange = useCallback((v: unknown) => void observer.setValue(name, fromEvent(v)), [observer, name])
  const onBlur = useCallback(() => void observer.touch(name), [observer, name])
  return {
    value: state ? state.value : initialValue,
    error: state?.error ?? '',
    flags: state?.flags ?? { ...createEmptyFlags(), required: !!rules?.some((r) => r.required) },
    required: !!rules?.some((r) => r.required),
    onChange,
    onBlur,
  }
}

function createEmptyFlags(): FieldFlags {
  return {
    untouched: true,
    touched: false,
    dirty: false,
    pristine: true,
    valid: false,
    invalid: false,
    validated: false,
    pending: false,
    required: false,
    changed: false,
    passed: false,
    failed: false,
  }
}
