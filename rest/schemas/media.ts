/**
 * The media routes' success body: the image bytes themselves (the 'binary' envelope, rest/route.ts).
 */
import type { JsonSchema } from './json-schema';

export const mediaBytesSchema: JsonSchema = {
  type: 'string',
  format: 'binary',
  // A media range: the stored format decides (image/png, image/jpeg, image/webp or image/gif).
  contentMediaType: 'image/*',
  description: 'The image bytes, in the format Content-Type names (image/png, image/jpeg, image/webp or image/gif).',
};

export const thumbnailBytesSchema: JsonSchema = {
  type: 'string',
  format: 'binary',
  contentMediaType: 'image/png',
  description: 'A PNG (image/png) at most 256 pixels on its longer side, never larger than the original.',
};
