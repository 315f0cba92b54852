/**
 * The demo generator's logos (SVG, generator/logos.ts) on their way into the MediaStore.
 *
 * Rendering is the expensive part of seeding (librsvg, PNG encoding and the thumbnail: about 5 to
 * 10 ms an image, against well under 1 ms a mark for everything else), so the seed does not render:
 * it writes each logo's SVG to the collection `generated_logos` under the media ID the mark's
 * record links, and `withGeneratedLogos` renders one into the MediaStore the first time it is read
 * (GET /v1/media/{id}, its thumbnail, or anything else reading the port). From then on it is an
 * ordinary stored image. `seedStore` can also render every logo at once (`renderLogos`), for a data
 * directory that must hold the files, such as an image-search benchmark's.
 *
 * The collection is also the near-duplicates' ground truth: `derived_from` names the mark and media
 * a variant was made from, whether or not either has been rendered yet.
 */
import type sharp from 'sharp';
import type { Collection, DocumentStore, MediaContent, MediaDerivation, MediaPutMeta, MediaRecord, MediaStore, StoredDocument } from '../../datasources/ports';
import { COLLECTIONS } from '../../domain/records';
import type { LogoPlan } from './generator';

/** One generated logo, keyed by the media ID its mark links. */
export interface GeneratedLogoDoc extends StoredDocument {
  trademark_id: string;
  svg: string;
  derived_from: MediaDerivation | null;
}

export function generatedLogoDocs(plans: readonly LogoPlan[]): GeneratedLogoDoc[] {
  return plans.map((plan) => ({ _id: plan.mediaId, trademark_id: plan.trademarkId, svg: plan.svg, derived_from: plan.derivedFrom }));
}

type Sharp = typeof sharp;
let loaded: Promise<Sharp> | null = null;

/** The PNG of `svg` (sharp is loaded on first use: commands that render nothing never load it). */
export async function renderSvg(svg: string): Promise<Buffer> {
  const sharp = await (loaded ??= import('sharp').then((module) => module.default));
  // Fast zlib settings: the PNGs are a little larger, rendering takes noticeably less time.
  return sharp(Buffer.from(svg)).png({ compressionLevel: 4, adaptiveFiltering: false }).toBuffer();
}

function putMeta(doc: GeneratedLogoDoc): MediaPutMeta {
  return { id: doc._id, trademark_id: doc.trademark_id, derived_from: doc.derived_from };
}

/**
 * Renders and stores `docs`, at most `concurrency` at a time (sharp works on libuv's thread pool);
 * a family's marks share one drawing, rendered once.
 */
export async function renderGeneratedLogos(media: MediaStore, docs: readonly GeneratedLogoDoc[], concurrency = 4): Promise<void> {
  const rendered = new Map<string, Promise<Buffer>>();
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < docs.length) {
      const doc = docs[next++]!;
      let png = rendered.get(doc.svg);
      if (png === undefined) {
        png = renderSvg(doc.svg);
        rendered.set(doc.svg, png);
      }
      await media.put(await png, putMeta(doc));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, docs.length) }, work));
}

/**
 * `media`, plus the generated logos not yet rendered: reading one renders and stores it first (one
 * rendering at a time per ID, however many requests ask), so every media link of a generated mark
 * answers with an ordinary stored image.
 */
export function withGeneratedLogos(media: MediaStore, store: DocumentStore): MediaStore {
  const logos: Collection<GeneratedLogoDoc> = store.collection(COLLECTIONS.generatedLogos);
  const inFlight = new Map<string, Promise<MediaRecord | null>>();
  const materialize = (id: string): Promise<MediaRecord | null> => {
    let pending = inFlight.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const doc = await logos.findOne({ _id: id });
        return doc === null ? null : media.put(await renderSvg(doc.svg), putMeta(doc));
      })().finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    return pending;
  };
  const read =
    (get: (id: string) => Promise<MediaContent | null>) =>
    async (id: string): Promise<MediaContent | null> =>
      (await get(id)) ?? ((await materialize(id)) === null ? null : get(id));
  return {
    put: (bytes, meta) => media.put(bytes, meta),
    get: read((id) => media.get(id)),
    getThumbnail: read((id) => media.getThumbnail(id)),
    exists: async (id) => (await media.exists(id)) || (await logos.countDocuments({ _id: id })) > 0,
  };
}
