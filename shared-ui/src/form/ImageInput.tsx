import { useEffect, useMemo, useRef, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { IMAGE_ACCEPT } from '@sertifikasi/shared-contracts';
import { imageUrl } from '../format';
import { UI_FORMAT, UI_TEXT } from '../i18n/id';
import { useBoundField, type BaseFieldProps } from './useBoundField';

export interface ImageInputProps extends BaseFieldProps {
  /** Preview size in pixels (square box); 120 by default. */
  size?: number;
}

/** A blob URL for a chosen file, revoked when the file changes or the preview goes away. */
function useObjectUrl(file: unknown): string | null {
  const url = useMemo(
    () =>
      file instanceof Blob && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null,
    [file],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/**
 * An image upload with preview (docs/rules.md#uploads and #api-conventions). The formik field `name` holds the
 * stored image's name as the API returned it (previewed from `/images/<name>`); a chosen file goes to
 * `<name>_file` and is previewed instead, leaving `name` as it is (the server replaces the image);
 * 'Hapus Gambar' empties both, which removes the stored image on save. Accepts JPEG and PNG.
 *
 * 'Pilih Gambar' is a button of its own (named with the field's label, e.g. 'Pilih Gambar Logo')
 * that opens the browser's file chooser; the file input itself is hidden and out of the Tab order,
 * so no control sits inside another (WCAG 4.1.2) and a keyboard reaches each one once.
 */
export function ImageInput({ name, label, required, disabled, helperText, size = 120 }: ImageInputProps) {
  const fileName = `${name}_file`;
  const { id, field, helpers, error } = useBoundField<string | null | undefined>(name);
  const upload = useBoundField<File | null | undefined>(fileName);
  const fileHelpers = upload.helpers;
  const file = upload.field.value instanceof File ? upload.field.value : null;
  const shownError = error ?? upload.error;
  const fileUrl = useObjectUrl(file);
  const input = useRef<HTMLInputElement>(null);
  const labelId = `${id}-label`;
  const preview = fileUrl ?? imageUrl(field.value);

  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    // Let the same file be chosen again after a removal.
    event.target.value = '';
    if (!chosen) return;
    void fileHelpers.setValue(chosen);
    void fileHelpers.setTouched(true, false);
    void helpers.setTouched(true);
  };

  const onRemove = () => {
    void fileHelpers.setValue(null);
    void helpers.setValue('');
    void helpers.setTouched(true);
  };

  return (
    <FormControl error={shownError !== undefined} disabled={disabled} required={required}>
      <FormLabel id={labelId} component="span" sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Box
          sx={{
            width: size,
            height: size,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            overflow: 'hidden',
            bgcolor: 'grey.50',
            flexShrink: 0,
          }}
        >
          {preview ? (
            <Box
              component="img"
              src={preview}
              alt={UI_FORMAT.preview(label)}
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          ) : (
            <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
              {UI_TEXT.noImage}
            </Typography>
          )}
        </Box>
        <Stack spacing={1} sx={{ minWidth: 0 }}>
          <Button
            variant="outlined"
            size="small"
            disabled={disabled}
            onClick={() => input.current?.click()}
            aria-label={UI_FORMAT.chooseImage(label)}
            aria-describedby={(shownError ?? helperText) ? `${id}-help` : undefined}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {UI_TEXT.chooseImage}
          </Button>
          <input
            ref={input}
            id={id}
            name={fileName}
            type="file"
            accept={IMAGE_ACCEPT}
            onChange={onChoose}
            disabled={disabled}
            hidden
            tabIndex={-1}
            aria-labelledby={labelId}
          />
          {preview && (
            <Button
              variant="text"
              color="error"
              size="small"
              onClick={onRemove}
              disabled={disabled}
              sx={{ whiteSpace: 'nowrap' }}
            >
              {UI_TEXT.removeImage}
            </Button>
          )}
          {file && (
            <Typography variant="caption" color="text.secondary" noWrap title={file.name}>
              {UI_TEXT.chosenFile}: {file.name}
            </Typography>
          )}
        </Stack>
      </Stack>
      {(shownError ?? helperText) && (
        <FormHelperText id={`${id}-help`}>{shownError ?? helperText}</FormHelperText>
      )}
    </FormControl>
  );
}
