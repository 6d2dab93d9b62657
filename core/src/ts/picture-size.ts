/**
 * The picture sizes a parameter set may plausibly give: whole samples from 1
 * to 16384 each way (beyond the largest level of H.264 Annex A and H.265
 * Annex A). Random bytes that happen to parse give larger ones.
 */
export const MAX_PICTURE_SAMPLES = 16_384;

export function isPlausiblePictureSize(width: number, height: number): boolean {
  return Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width <= MAX_PICTURE_SAMPLES && height <= MAX_PICTURE_SAMPLES;
}
