/**
 * Fetches an image a caller names by URL (image search's `image_url`) under the same outbound rules
 * as a webhook delivery (exchange.ts): in production https only and the connect-time address guard;
 * redirects not followed; connect and response timeouts; at most `maxBytes` read.
 *
 * Every failure is the catalog's error naming the parameter and the rule: 400 `validation_error`
 * for what the caller can fix (the URL, or what its server answered: an error status, a redirect,
 * a body over the cap, a body cut off, no answer in time), as the URL is theirs. Whether the bytes
 * are a raster image is the caller's next step (media-images.ts).
 */
import { ApiError, invalid } from '../../domain/errors';
import { exchange, type ExchangeOptions } from './exchange';

export const IMAGE_FETCH_USER_AGENT = 'Marque-ImageSearch/1';

export interface GetImageOptions extends Omit<ExchangeOptions, 'maxResponseBytes' | 'parameter'> {
  /** The request parameter named by every refusal. */
  parameter: string;
  /** The largest image accepted, in bytes. */
  maxBytes: number;
  /** The Accept header: the formats the caller can use. */
  accept: string;
}

/** The bytes at `url`; throws the ApiError of the first rule the URL or its server's answer breaks. */
export async function getImage(url: string, options: GetImageOptions): Promise<Buffer> {
  const { parameter, maxBytes } = options;
  // One byte over the limit is enough to know the image is too large.
  const result = await exchange(
    url,
    { method: 'GET', headers: { accept: options.accept, 'user-agent': IMAGE_FETCH_USER_AGENT } },
    { ...options, maxResponseBytes: maxBytes + 1 },
  );
  if (!result.ok) {
    if (result.error === 'invalid_url' || result.error === 'forbidden_address') throw new ApiError('validation_error', result.message, { parameter });
    if (result.error === 'timeout') throw invalid(parameter, `the server did not answer in time (${result.message})`);
    throw invalid(parameter, `could not be fetched (${result.message})`);
  }
  if (result.status >= 300 && result.status < 400)
    throw invalid(parameter, `redirects are not followed (the server answered ${result.status}); give the image's own URL`);
  if (result.status < 200 || result.status >= 300) throw invalid(parameter, `the server answered ${result.status}, not an image`);
  const declared = Number(result.headers['content-length']);
  if (result.body.length > maxBytes || (Number.isFinite(declared) && declared > maxBytes))
    throw invalid(parameter, `the image is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`);
  if (!result.complete) throw invalid(parameter, 'the image could not be read to the end (the server cut it off or was too slow)');
  return result.body;
}
