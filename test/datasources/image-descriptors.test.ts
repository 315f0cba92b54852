/**
 * The fingerprint's views: a stored image is also described with 12 % cut off two adjacent sides,
 * so that a copy cut out of it that way (the crop moves the content box the descriptor normalises)
 * still lies next to it.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { cosine, fingerprintImage } from '../../datasources/image-descriptors';

/** A 400 × 400 drawing that fills the picture to its edges, so that any crop cuts into it. */
const DRAWING =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#fff"/>' +
  '<polygon points="0,0 400,60 330,400 20,300" fill="#1d4e89"/><circle cx="300" cy="110" r="80" fill="#f2a900"/>' +
  '<rect x="40" y="250" width="200" height="60" fill="#b3001b"/></svg>';

describe('image descriptors: views', () => {
  it('a copy with 12 % cut off its left and top lies next to the stored view cut the same way, closer than to the whole image', async () => {
    const original = await sharp(Buffer.from(DRAWING)).png().toBuffer();
    // 12 % of 400 px is 48 px off the left and off the top.
    const cut = await sharp(original).extract({ left: 48, top: 48, width: 352, height: 352 }).png().toBuffer();
    const stored = await fingerprintImage(original, { views: true });
    const query = await fingerprintImage(cut);

    expect(stored.views).to.have.length(4);
    expect(query.views, 'a query is described whole only').to.have.length(0);
    const toWhole = cosine(query.descriptor, stored.descriptor);
    const toViews = stored.views.map((view) => cosine(query.descriptor, view));
    const best = Math.max(...toViews);
    // The first view is the one cut off the left and the top; only resampling tells them apart.
    expect(toViews.indexOf(best)).to.equal(0);
    expect(best).to.be.above(0.99);
    expect(best).to.be.above(toWhole);
  });
});
