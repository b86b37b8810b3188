import { useId } from 'react';
import { useField, useFormikContext, type FieldHelperProps, type FieldInputProps } from 'formik';

/** Props every form piece takes. */
export interface BaseFieldProps {
  /** The API field name: the formik value key and the input's `name`. */
  name: string;
  /** The visible label, tied to the input. */
  label: string;
  /** Marks the label with an asterisk; what is required is decided by the yup schema. */
  required?: boolean;
  disabled?: boolean;
  /** Help under the input when there is no error. */
  helperText?: string;
}

export interface BoundField<V> {
  id: string;
  field: FieldInputProps<V>;
  helpers: FieldHelperProps<V>;
  /** The error to show: after the field was touched or the form submitted (server errors included). */
  error: string | undefined;
}

/** formik types errors as strings, but an array field can hold one per item. */
function firstMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) return (error as unknown[]).find((e): e is string => typeof e === 'string');
  return undefined;
}

/** A formik field with a unique input id and the error to show under it. */
export function useBoundField<V>(name: string): BoundField<V> {
  const [field, meta, helpers] = useField<V>(name);
  const { submitCount } = useFormikContext();
  const id = `${name}-${useId().replace(/:/g, '')}`;
  const message = firstMessage(meta.error);
  const shown = message !== undefined && (Boolean(meta.touched) || submitCount > 0);
  return { id, field, helpers, error: shown ? message : undefined };
}

/** What the TextField of a bound field shows: name, label, the required mark, the error and the text under it. */
export function textFieldProps(
  { name, label, required, helperText }: BaseFieldProps,
  error: string | undefined,
) {
  return { name, label, required, error: error !== undefined, helperText: error ?? helperText };
}

/**
 * The TextField props binding an input that edits its value as text (text, password, native select)
 * to its formik field: id, value, change and blur, the label and error texts.
 */
export function useTextField<V extends string | number | null | undefined>(props: BaseFieldProps) {
  const { id, field, error } = useBoundField<V>(props.name);
  return {
    id,
    ...textFieldProps(props, error),
    value: field.value ?? '',
    onChange: field.onChange,
    onBlur: field.onBlur,
    disabled: props.disabled,
    fullWidth: true,
  };
}
