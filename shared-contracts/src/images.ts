/** Upload rules (docs/rules.md#uploads). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MAX_SIDE = 4096;
export const IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
