/**
 * A PNG of a word mark: `text` in bold sans-serif, dark on `background`, rendered from SVG by
 * sharp (librsvg), for tests that need an image whose words are known.
 */
import sharp from 'sharp';

export function wordmarkPng(text: string, options: { background?: string; fontSize?: number } = {}): Promise<Buffer> {
  const { background = '#ffffff', fontSize = 40 } = options;
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="200"><rect width="520" height="200" fill="${background}"/>` +
        `<text x="260" y="120" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="${fontSize}" fill="#111">${text}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();
}
