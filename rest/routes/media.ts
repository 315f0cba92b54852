/**
 * The images of marks: `GET /v1/media/{id}` (the original, as stored) and
 * `GET /v1/media/{id}/thumbnail` (a PNG, at most 256 px on the longer side), the links trademark
 * records carry in `media[].url`. Custom routes with the 'binary' envelope (rest/route.ts): bytes,
 * not JSON; errors keep the JSON error envelope.
 *
 * No key: these are public data (the representations offices publish in their registers, and the
 * demo's logos); a browser's `<img src>` cannot send an Authorization header; and the answers are
 * the same for everyone, so shared caches and CDNs may keep them. Like health and the OpenAPI
 * document they are therefore outside every limit and never metered (utility pool). Nothing
 * private is ever stored in the MediaStore: image search's query images are never stored.
 */
import type { MediaContent, MediaImageInfo, MediaStore } from '../../datasources/ports';
import { ApiError } from '../../domain/errors';
import type { ParamSpec } from '../params';
import { PUBLIC_GET, type BinaryBody, type CustomRoute, type RouteDef } from '../route';
import { mediaBytesSchema, thumbnailBytesSchema } from '../schemas/media';

/** A day: the bytes at an ID change only when an office republishes a mark's image. */
export const MEDIA_MAX_AGE_SECONDS = 86_400;

const mediaIdParam: ParamSpec = {
  name: 'id',
  kind: { type: 'id', prefix: 'med_' },
  required: true,
  description: 'Media ID (med_...), as a trademark record links it.',
};

const CACHING =
  'Cache-Control: public, max-age=86400, immutable; the ETag is the SHA-256 of the bytes (hex, quoted), and If-None-Match with it gets 304 without a body. HEAD answers the same headers.';
const NO_KEY =
  'No key needed: the images are public register data, browsers load them with <img src> (which cannot send a key), and every caller gets the same bytes, so any cache may keep them. Not rate-limited, not metered.';

function binary(bytes: Buffer, image: MediaImageInfo): BinaryBody {
  return { bytes, contentType: image.mime_type, etag: `"${image.checksum_sha256}"` };
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `media ${id} does not exist`);
}

const base = {
  ...PUBLIC_GET,
  tag: 'Trademarks',
  contract: 'named-without-detail',
  pathParams: [mediaIdParam],
  envelope: 'binary',
  publicCache: { maxAgeSeconds: MEDIA_MAX_AGE_SECONDS },
  errors: [404],
} as const;

/**
 * The media routes over `media`; without one (route-table checks that serve nothing) every ID is
 * unknown.
 */
export function mediaRoutes(media: MediaStore | null): RouteDef[] {
  const serve = (
    read: (store: MediaStore, id: string) => Promise<MediaContent | null>,
    pick: (content: MediaContent) => MediaImageInfo,
  ): CustomRoute['handle'] => {
    return async ({ path }) => {
      const id = path.id as string;
      const content = media === null ? null : await read(media, id);
      if (content === null) throw notFound(id);
      return { status: 200, body: binary(content.bytes, pick(content)) };
    };
  };
  return [
    {
      ...base,
      id: 'getMedia',
      path: '/v1/media/:id',
      summary: 'Image of a mark',
      description: `The stored image of a mark, byte for byte as the office published it (the demo catalog's logos are PNG), with its Content-Type. ${CACHING} ${NO_KEY} 404 not_found for an unknown ID; an ID of another kind (tm_…) is 400 id_type_mismatch.`,
      response: mediaBytesSchema,
      handle: serve(
        (store, id) => store.get(id),
        (content) => content.record,
      ),
    },
    {
      ...base,
      id: 'getMediaThumbnail',
      path: '/v1/media/:id/thumbnail',
      summary: 'Thumbnail of a mark image',
      description: `A PNG of the image at most 256 pixels on its longer side (never enlarged), for result lists. ${CACHING} ${NO_KEY} 404 not_found for an unknown ID.`,
      response: thumbnailBytesSchema,
      handle: serve(
        (store, id) => store.getThumbnail(id),
        (content) => content.record.thumbnail,
      ),
    },
  ];
}
