/**
 * The fingerprint's views: a stored image is also described with 12 % cut off two adjacent sides,
 * so that a copy cut out of it that way (the crop moves the content box the descriptor normalises)
 * still lies next to it; a query is also described with 4 % cut off one side in turn, so that a copy
 * cut less deeply on one axis meets those views too.
 */
import { expect } from 'chai';
import { cosine, fingerprintImage } from '../../datasources/image-descriptors';
import { cutTopLeft, edgeToEdgeDrawingPng } from '../support/drawing';

describe('image descriptors: views', () => {
  it('a copy with 12 % cut off its left and top lies next to the stored view cut the same way, closer than to the whole image', async () => {
    const original = await edgeToEdgeDrawingPng();
    // 12 % of 400 px is 48 px off the left and off the top.
    const cut = await cutTopLeft(original, 48, 48);
    const stored = await fingerprintImage(original, { views: 'indexed' });
    const query = await fingerprintImage(cut);

    expect(stored.views).to.have.length(4);
    expect(query.views, 'no views unless asked for').to.have.length(0);
    const toWhole = cosine(query.descriptor, stored.descriptor);
    const toViews = stored.views.map((view) => cosine(query.descriptor, view));
    const best = Math.max(...toViews);
    // The first view is the one cut off the left and the top; only resampling tells them apart.
    expect(toViews.indexOf(best)).to.equal(0);
    expect(best).to.be.above(0.99);
    expect(best).to.be.above(toWhole);
  });

  it('a copy with 8 % cut off its left and 12 % off its top meets the stored corner view through its query view cut 4 % more off the left', async () => {
    const original = await edgeToEdgeDrawingPng();
    // 8 % of 400 px is 32 px off the left, 12 % is 48 px off the top; 4 % of the 368 px left is
    // about 15 px more, 47 px (11.7 %) of the original's width in all: the corner view's cut.
    const cut = await cutTopLeft(original, 32, 48);
    const stored = await fingerprintImage(original, { views: 'indexed' });
    const query = await fingerprintImage(cut, { views: 'query' });
    const nearestStored = (vector: Float32Array): number => Math.max(...[stored.descriptor, ...stored.views].map((view) => cosine(vector, view)));

    expect(query.views).to.have.length(4);
    // The query views are cut off the left, the top, the right and the bottom, in that order.
    const offLeft = nearestStored(query.views[0]!);
    expect(offLeft).to.be.above(0.99);
    expect(nearestStored(query.descriptor), 'the whole copy falls between the stored views').to.be.below(0.99);
    expect(offLeft).to.equal(Math.max(...query.views.map(nearestStored)));
  });
});
