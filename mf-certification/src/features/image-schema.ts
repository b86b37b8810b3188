import * as yup from 'yup';
import type { AnyObjectSchema } from 'yup';
import { V } from '@sertifikasi/shared-contracts';
import type { FormMode } from '@sertifikasi/shared-ui';

/**
 * A contract's input schema for a form with an image (`<field>` the stored name, `<field>_file` the
 * chosen file): the file may be null ('Hapus Gambar' sets it so), and when the image is required a
 * new record needs a chosen file ('<label> wajib diisi' under the image), as the API demands.
 */
export function withImageFile(
  schema: AnyObjectSchema,
  field: string,
  label: string,
  { requiredOnCreate, mode }: { requiredOnCreate: boolean; mode: FormMode },
): AnyObjectSchema {
  const file = yup
    .mixed<Blob>()
    .nullable()
    .optional()
    .test('image-file', V.required(label), (value) =>
      requiredOnCreate && mode === 'create' ? value instanceof Blob : value == null || value instanceof Blob,
    );
  return schema.shape({ [`${field}_file`]: file });
}
