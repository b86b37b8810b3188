/**
 * Writes a request body as multipart form data (docs/rules.md#api-conventions): files as files, null as ''
 * (an empty image name removes the stored image) except for `<field>_file` (no file: left out),
 * arrays and objects as JSON text, undefined left out.
 */
export function toFormData(body: Record<string, unknown>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || (value === null && key.endsWith('_file'))) continue;
    if (value instanceof Blob) data.append(key, value, value instanceof File ? value.name : key);
    else if (value === null) data.append(key, '');
    else if (typeof value === 'string') data.append(key, value);
    else if (typeof value === 'number' || typeof value === 'boolean') data.append(key, String(value));
    else data.append(key, JSON.stringify(value));
  }
  return data;
}
