/** A test image whose drawing fills the picture to its edges, so that any crop cuts into it. */
import sharp from 'sharp';

const DRAWING =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#fff"/>' +
  '<polygon points="0,0 400,60 330,400 20,300" fill="#1d4e89"/><circle cx="300" cy="110" r="80" fill="#f2a900"/>' +
  '<rect x="40" y="250" width="200" height="60" fill="#b3001b"/></svg>';

/** The drawing as a 400 × 400 PNG. */
export const edgeToEdgeDrawingPng = (): Promise<Buffer> => sharp(Buffer.from(DRAWING)).png().toBuffer();

/** `png` with `left` and `top` pixels cut off. */
export async function cutTopLeft(png: Buffer, left: number, top: number): Promise<Buffer> {
  const { width, height } = await sharp(png).metadata();
  return sharp(png)
    .extract({ left, top, width: width! - left, height: height! - top })
    .png()
    .toBuffer();
}

/** A blank white PNG of `width` × `height`: a strip far taller or wider than any logo. */
export const blankPng = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
