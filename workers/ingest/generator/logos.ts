/**
 * Logos for the generated marks, as SVG text (rendered to PNG by the seed, workers/ingest/seed.ts):
 * a device drawn from simple shapes chosen by the mark's Vienna codes, in a frame, with the mark's
 * words styled beneath it for combined marks; a colour swatch for colour marks.
 *
 * Every drawing is its own, as in a real register: shapes, tilt, scale, accents, frame and colours
 * take continuous values, so two marks' logos never share a drawing by chance (only a family's
 * marks share theirs, and a near-duplicate its original's). A generator drawing from a few
 * discrete choices repeated each drawing dozens of times in a million marks, and a search could
 * not tell the original from its exact look-alikes (BENCHMARKS-IMAGES-1M.md).
 *
 * Some logos are deliberately near-duplicates of an earlier mark's logo (recoloured, rescaled,
 * cropped, re-typeset), so image similarity has something to find; each says which mark's logo it
 * derives from (`derivedFrom`), the ground truth of a recall measurement.
 *
 * Deterministic: the designer draws from its own random stream (the generator's seed, never the
 * stream the records come from, so the records are the same with or without logos), in the order
 * marks are generated. Text is rendered with the fonts fontconfig finds (DejaVu or Liberation here,
 * a generic family otherwise), so the pixels, unlike the SVG, may differ between machines.
 */
import type { MarkFeatureType } from '../../../domain/records';
import { Random, WeightedTable } from './random';

export type LogoTransform = 'recolour' | 'rescale' | 'crop' | 'retypeset';

export interface LogoPlan {
  mediaId: string;
  trademarkId: string;
  svg: string;
  /** Set for a near-duplicate: the mark whose logo this one was made from, and how. */
  derivedFrom: { media_id: string; trademark_id: string; transforms: LogoTransform[] } | null;
}

interface Palette {
  /** The primary colour's hue, in degrees (a recolour moves it well away). */
  hue: number;
  background: string;
  primary: string;
  secondary: string;
  ink: string;
}

interface Typeface {
  family: string;
  weight: 'normal' | 'bold';
  style: 'normal' | 'italic';
  /** Extra space between letters, in em. */
  spacing: number;
}

/** Everything a logo's SVG is made from; a near-duplicate is a changed copy of its original's. */
interface LogoSpec {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** The drawing's coordinate box (a crop shows less of it). */
  view: { x: number; y: number; width: number; height: number };
  palette: Palette;
  /** The device's shapes, in a 100 × 100 box, with `{p}` `{s}` `{i}` standing for the palette colours. */
  device: string;
  /** The frame around the device, in the same box and colours ('' for none). */
  frame: string;
  text: string | null;
  typeface: Typeface;
  swatch: boolean;
}

/** `#rrggbb` of a hue in degrees and saturation and lightness in [0, 1]. */
function hslHex(hue: number, saturation: number, lightness: number): string {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = (((hue % 360) + 360) % 360) / 60;
  const x = chroma * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] = h < 1 ? [chroma, x, 0] : h < 2 ? [x, chroma, 0] : h < 3 ? [0, chroma, x] : h < 4 ? [0, x, chroma] : h < 5 ? [x, 0, chroma] : [chroma, 0, x];
  const m = lightness - chroma / 2;
  return `#${[r, g, b]
    .map((channel) =>
      Math.round((channel + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Uniform in [min, max), to a tenth: what a drawing's lengths and angles are drawn from. */
const uniform = (random: Random, min: number, max: number): number => round(min + random.next() * (max - min));

/** `uniform` bound to one stream, for drawings that draw many values. */
const uniformOf =
  (random: Random) =>
  (min: number, max: number): number =>
    uniform(random, min, max);

/**
 * Colours around a primary hue: a second hue elsewhere on the wheel, a dark ink of the primary's
 * hue; mostly a white or pale ground, now and then a dark one with light ink.
 */
function palette(random: Random, hue: number = uniform(random, 0, 360)): Palette {
  const u = (min: number, max: number): number => min + random.next() * (max - min);
  const secondHue = hue + u(40, 320);
  if (random.chance(0.15))
    return {
      hue,
      background: hslHex(secondHue + u(-30, 30), u(0.3, 0.7), u(0.08, 0.2)),
      primary: hslHex(hue, u(0.6, 0.95), u(0.55, 0.72)),
      secondary: hslHex(secondHue, u(0.6, 0.95), u(0.5, 0.7)),
      ink: hslHex(hue, u(0.1, 0.3), u(0.92, 0.99)),
    };
  return {
    hue,
    background: random.chance(0.7) ? hslHex(hue, u(0, 0.3), u(0.96, 1)) : hslHex(hue + u(-40, 40), u(0.3, 0.7), u(0.88, 0.95)),
    primary: hslHex(hue, u(0.45, 0.9), u(0.25, 0.48)),
    secondary: hslHex(secondHue, u(0.5, 0.95), u(0.4, 0.62)),
    ink: hslHex(hue, u(0.2, 0.6), u(0.08, 0.22)),
  };
}

const FAMILIES = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'DejaVu Sans Mono', 'Liberation Sans Narrow'];
const GENERIC: Record<string, string> = { Serif: 'serif', Mono: 'monospace' };

const FRAMES = new WeightedTable<'none' | 'circle' | 'rounded' | 'hexagon'>([
  { value: 'none', weight: 4 },
  { value: 'circle', weight: 3 },
  { value: 'rounded', weight: 2 },
  { value: 'hexagon', weight: 1 },
]);

/** A near-duplicate's transforms: one to three, in this order. */
export const TRANSFORMS: readonly LogoTransform[] = ['recolour', 'rescale', 'crop', 'retypeset'];

/** Feature types that get a near-duplicate now and then, and are remembered as originals. */
const LOGO_FEATURES: ReadonlySet<MarkFeatureType> = new Set(['figurative', 'combined']);
const VARIANT_SHARE = 0.12;
const RECENT_CAPACITY = 512;

/** A `#rrggbb` colour lighter than mid-grey. */
const isLight = (hex: string): boolean => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16) > 384;

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function points(list: ReadonlyArray<readonly [number, number]>): string {
  return list.map(([x, y]) => `${round(x)},${round(y)}`).join(' ');
}

/** `count` points on a circle of `radius` around (50, 50), starting at `angle` degrees. */
function ring(count: number, radius: number, angle: number): Array<[number, number]> {
  return Array.from({ length: count }, (_, i) => {
    const a = ((angle + (360 * i) / count) * Math.PI) / 180;
    return [50 + radius * Math.cos(a), 50 + radius * Math.sin(a)];
  });
}

function star(random: Random): string {
  const count = random.int(5, 8);
  const outer = ring(count, uniform(random, 38, 46), -90);
  const inner = ring(count, uniform(random, 14, 28), -90 + 180 / count);
  return `<polygon points="${points(outer.flatMap((point, i) => [point, inner[i]!]))}" fill="{p}" stroke="{i}" stroke-width="${uniform(random, 0, 4)}"/>`;
}

function sun(random: Random): string {
  const length = uniform(random, 36, 48);
  const rays = ring(random.int(7, 18), length, uniform(random, 0, 40))
    .map(([x, y]) => `<line x1="50" y1="50" x2="${round(x)}" y2="${round(y)}" stroke="{s}" stroke-width="${uniform(random, 2, 7)}"/>`)
    .join('');
  return `${rays}<circle cx="50" cy="50" r="${uniform(random, 14, 28)}" fill="{p}"/>`;
}

function globe(random: Random): string {
  const radius = uniform(random, 34, 44);
  const stroke = uniform(random, 2, 5);
  const step = uniform(random, 8, 16);
  const meridians = Array.from(
    { length: random.int(1, 3) },
    (_, i) => `<ellipse cx="50" cy="50" rx="${round(step * (i + 1))}" ry="${radius}" fill="none" stroke="{s}" stroke-width="${stroke}"/>`,
  ).join('');
  const parallels = Array.from({ length: random.int(0, 2) }, () => {
    const y = uniform(random, 50 - radius * 0.7, 50 + radius * 0.7);
    const half = round(Math.sqrt(radius * radius - (y - 50) * (y - 50)));
    return `<line x1="${round(50 - half)}" y1="${y}" x2="${round(50 + half)}" y2="${y}" stroke="{s}" stroke-width="${stroke}"/>`;
  }).join('');
  return `<circle cx="50" cy="50" r="${radius}" fill="{p}"/>${meridians}${parallels}<line x1="${round(50 - radius)}" y1="50" x2="${round(50 + radius)}" y2="50" stroke="{s}" stroke-width="${stroke}"/>`;
}

function crescent(random: Random): string {
  const radius = uniform(random, 36, 44);
  const inner = uniform(random, radius * 0.55, radius * 0.9);
  return `<path d="M50 ${round(50 - radius)} A${radius} ${radius} 0 1 0 50 ${round(50 + radius)} A${inner} ${radius} 0 1 1 50 ${round(50 - radius)} Z" fill="{p}"/>`;
}

function creature(random: Random): string {
  const body = `<ellipse cx="${uniform(random, 40, 52)}" cy="${uniform(random, 52, 62)}" rx="${uniform(random, 24, 36)}" ry="${uniform(random, 14, 26)}" fill="{p}"/>`;
  const head = `<circle cx="${uniform(random, 66, 80)}" cy="${uniform(random, 28, 44)}" r="${uniform(random, 8, 16)}" fill="{p}"/>`;
  const wing = `<polygon points="${points([
    [uniform(random, 34, 46), uniform(random, 46, 54)],
    [uniform(random, 14, 34), uniform(random, 8, 30)],
    [uniform(random, 54, 66), uniform(random, 44, 52)],
  ])}" fill="{s}"/>`;
  const legCount = random.int(2, 4);
  const legs = Array.from({ length: legCount }, (_, i) => {
    const x = 26 + (i * 36) / (legCount - 1) + uniform(random, -3, 3);
    return `<rect x="${round(x)}" y="${uniform(random, 66, 72)}" width="${uniform(random, 4, 8)}" height="${uniform(random, 14, 24)}" fill="{i}"/>`;
  }).join('');
  const tail = `<path d="M${uniform(random, 14, 20)} ${uniform(random, 52, 60)} Q${uniform(random, 2, 10)} ${uniform(random, 30, 50)} ${uniform(random, 6, 16)} ${uniform(random, 20, 34)}" fill="none" stroke="{p}" stroke-width="${uniform(random, 3, 7)}"/>`;
  return body + wing + head + (random.chance(0.6) ? legs : '') + (random.chance(0.5) ? tail : '');
}

function plant(random: Random, kind: string): string {
  if (kind === '05.01') {
    const tiers = random.int(2, 4);
    const spread = uniform(random, 6, 12);
    const height = uniform(random, 26, 40);
    const crowns = Array.from({ length: tiers }, (_, i) => {
      const top = 8 + i * (60 / tiers) + uniform(random, -3, 3);
      return `<polygon points="${points([
        [50, top],
        [50 - 14 - i * spread, top + height],
        [50 + 14 + i * spread, top + height],
      ])}" fill="{p}"/>`;
    }).join('');
    const trunk = uniform(random, 6, 14);
    return `<rect x="${round(50 - trunk / 2)}" y="70" width="${trunk}" height="24" fill="{i}"/>${crowns}`;
  }
  if (kind === '05.03')
    return `<path d="M50 ${uniform(random, 4, 12)} Q${uniform(random, 80, 99)} ${uniform(random, 35, 65)} 50 ${uniform(random, 88, 96)} Q${uniform(random, 1, 20)} ${uniform(random, 35, 65)} 50 6 Z" fill="{p}"/><line x1="50" y1="12" x2="50" y2="90" stroke="{s}" stroke-width="${uniform(random, 2, 5)}"/>`;
  const distance = uniform(random, 18, 30);
  const petals = ring(random.int(4, 9), distance, uniform(random, 0, 72))
    .map(([x, y]) => `<circle cx="${round(x)}" cy="${round(y)}" r="${uniform(random, 10, 20)}" fill="{p}"/>`)
    .join('');
  return `${petals}<circle cx="50" cy="50" r="${uniform(random, 8, 16)}" fill="{s}"/>`;
}

function emblem(random: Random, kind: string): string {
  const u = uniformOf(random);
  switch (kind) {
    case '24.09':
      return `<polygon points="${points([
        [10, u(74, 84)],
        [u(6, 14), u(22, 38)],
        [u(26, 34), u(48, 60)],
        [50, u(12, 28)],
        [u(66, 74), u(48, 60)],
        [u(86, 94), u(22, 38)],
        [90, u(74, 84)],
      ])}" fill="{p}"/><rect x="10" y="78" width="80" height="${u(6, 16)}" fill="{s}"/>`;
    case '24.01':
      return `<path d="M50 ${u(4, 10)} L${u(86, 94)} ${u(14, 26)} L${u(82, 90)} 58 Q${u(72, 84)} ${u(78, 90)} 50 96 Q${u(16, 28)} ${u(78, 90)} ${u(10, 18)} 58 L${u(6, 14)} ${u(14, 26)} Z" fill="{p}"/><path d="M50 ${u(16, 32)} L50 ${u(80, 90)} M${u(22, 34)} ${u(38, 54)} L${u(66, 78)} ${u(38, 54)}" stroke="{s}" stroke-width="${u(4, 10)}"/>`;
    case '24.15': {
      const shaft = u(8, 14);
      const head = u(56, 70);
      return `<polygon points="${points([
        [8, 50 - shaft],
        [head, 50 - shaft],
        [head, u(14, 28)],
        [u(88, 96), 50],
        [head, u(72, 86)],
        [head, 50 + shaft],
        [8, 50 + shaft],
      ])}" fill="{p}"/>`;
    }
    case '26.03':
      return Array.from({ length: random.int(1, 3) }, (_, i) => {
        const inset = i * u(9, 15);
        return `<polygon points="${points([
          [50 + u(-4, 4), 8 + inset],
          [92 - inset, 88 - inset / 2],
          [8 + inset, 88 - inset / 2],
        ])}" fill="${i % 2 === 0 ? '{p}' : '{s}'}"/>`;
      }).join('');
    case '02.01':
    case '02.03':
      return `<circle cx="50" cy="${u(18, 26)}" r="${u(10, 17)}" fill="{p}"/><polygon points="${points([
        [50 - u(8, 18), u(36, 44)],
        [50 + u(8, 18), u(36, 44)],
        [50 + u(16, 32), 94],
        [50 - u(16, 32), 94],
      ])}" fill="{p}"/>`;
    default: {
      const count = random.int(1, 4);
      const step = u(8, 16);
      return Array.from(
        { length: count },
        (_, i) => `<circle cx="${u(46, 54)}" cy="${u(46, 54)}" r="${round(u(40, 46) - i * step)}" fill="${i % 2 === 0 ? '{p}' : '{s}'}"/>`,
      ).join('');
    }
  }
}

/** Small marks beside the main shape (dots, bars, rings): none, or one to three. */
function accents(random: Random): string {
  if (random.chance(0.4)) return '';
  const u = uniformOf(random);
  return Array.from({ length: random.int(1, 3) }, () => {
    const [x, y] = [u(8, 92), u(8, 92)];
    const colour = random.pick(['{s}', '{i}']);
    switch (random.int(0, 2)) {
      case 0:
        return `<circle cx="${x}" cy="${y}" r="${u(2.5, 8)}" fill="${colour}"/>`;
      case 1:
        return `<rect x="${x}" y="${y}" width="${u(10, 34)}" height="${u(3, 8)}" fill="${colour}" transform="rotate(${u(0, 180)} ${x} ${y})"/>`;
      default:
        return `<circle cx="${x}" cy="${y}" r="${u(5, 12)}" fill="none" stroke="${colour}" stroke-width="${u(1.5, 4)}"/>`;
    }
  }).join('');
}

/** The device for a Vienna division (the figurative marks' devices map to these), tilted and scaled a little, with its accents. */
function device(random: Random, vienna: string | undefined): string {
  const kind = vienna ?? random.pick(['01.01', '24.01', '26.01', '26.03', '05.03', '01.05']);
  let shape: string;
  if (kind === '01.01') shape = star(random);
  else if (kind === '01.03') shape = sun(random);
  else if (kind === '01.05') shape = globe(random);
  else if (kind === '01.07') shape = crescent(random);
  else if (kind.startsWith('03.') || kind.startsWith('04.')) shape = creature(random);
  else if (kind.startsWith('05.')) shape = plant(random, kind);
  else shape = emblem(random, kind);
  const tilt = uniform(random, -35, 35);
  const scale = uniform(random, 0.82, 1.06);
  return `<g transform="translate(50 50) rotate(${tilt}) scale(${scale}) translate(-50 -50)">${shape}</g>${accents(random)}`;
}

function frame(random: Random): string {
  const stroke = uniform(random, 1.5, 5);
  switch (FRAMES.pick(random)) {
    case 'none':
      return '';
    case 'circle':
      return `<circle cx="50" cy="50" r="${round(50 - stroke / 2)}" fill="none" stroke="{s}" stroke-width="${stroke}"/>`;
    case 'rounded': {
      const inset = round(stroke / 2);
      return `<rect x="${inset}" y="${inset}" width="${round(100 - stroke)}" height="${round(100 - stroke)}" rx="${uniform(random, 6, 30)}" fill="none" stroke="{s}" stroke-width="${stroke}"/>`;
    }
    case 'hexagon':
      return `<polygon points="${points(ring(6, 50 - stroke / 2, uniform(random, -90, -60)))}" fill="none" stroke="{s}" stroke-width="${stroke}"/>`;
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function fontFamily(family: string): string {
  const generic = Object.entries(GENERIC).find(([marker]) => family.includes(marker))?.[1] ?? 'sans-serif';
  return `'${family}', ${generic}`;
}

/** The SVG of a spec. Drawing units: a 100 × 100 device box at the top (or filling a figurative logo). */
export function logoSvg(spec: LogoSpec): string {
  const { palette, view } = spec;
  const colour = (svg: string): string => svg.replace(/\{p\}/g, palette.primary).replace(/\{s\}/g, palette.secondary).replace(/\{i\}/g, palette.ink);
  let body: string;
  if (spec.swatch) {
    body = `<rect x="0" y="0" width="100" height="100" fill="${palette.primary}"/><rect x="0" y="${round(100 * 0.62)}" width="100" height="38" fill="${palette.secondary}"/>`;
  } else if (spec.text === null) {
    body = colour(spec.frame + `<g transform="translate(10 10) scale(0.8)">${spec.device}</g>`);
  } else {
    // Combined: the device in the upper part of a 160 × 100 box, the words beneath it.
    // Capitals are about 0.75 em wide in bold sans faces, 0.68 em otherwise: sized to fit 148 units.
    const letters = [...spec.text].length;
    const advance = (spec.typeface.weight === 'bold' ? 0.75 : 0.68) + spec.typeface.spacing;
    const size = round(Math.min(20, 148 / Math.max(1, letters) / advance));
    const text = `<text x="80" y="93" text-anchor="middle" font-family="${escapeXml(fontFamily(spec.typeface.family))}" font-size="${size}" font-weight="${spec.typeface.weight}" font-style="${spec.typeface.style}" letter-spacing="${round(spec.typeface.spacing * size)}" fill="${palette.ink}">${escapeXml(spec.text)}</text>`;
    body = colour(`<g transform="translate(48 3) scale(0.64)">${spec.frame}<g transform="translate(10 10) scale(0.8)">${spec.device}</g></g>`) + text;
  }
  const viewBox = `${round(view.x)} ${round(view.y)} ${round(view.width)} ${round(view.height)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid meet"><rect x="${round(view.x)}" y="${round(view.y)}" width="${round(view.width)}" height="${round(view.height)}" fill="${palette.background}"/>${body}</svg>`;
}

export interface LogoSubject {
  trademarkId: string;
  mediaId: string;
  featureType: MarkFeatureType;
  text: string;
  viennaCodes: readonly string[];
}

interface Remembered {
  spec: LogoSpec;
  mediaId: string;
  trademarkId: string;
}

/**
 * Designs the logos of one generated catalog, in generation order. `design` returns the spec for a
 * family's first mark; its designations and refilings of the same design reuse it (`sameAs`).
 */
export class LogoDesigner {
  private readonly random: Random;
  private readonly recent: Remembered[] = [];

  constructor(seed: number) {
    this.random = new Random(seed ^ 0x10605);
  }

  /** The logo of `subject`: its own, or now and then a near-duplicate of a recent one. */
  design(subject: LogoSubject): LogoPlan {
    const random = this.random;
    let spec: LogoSpec;
    let derivedFrom: LogoPlan['derivedFrom'] = null;
    const logoLike = LOGO_FEATURES.has(subject.featureType);
    if (logoLike && this.recent.length > 0 && random.chance(VARIANT_SHARE)) {
      const original = random.pick(this.recent);
      const wanted = random.int(1, 3);
      const transforms = random.sample(
        TRANSFORMS.filter((transform) => transform !== 'retypeset' || original.spec.text !== null),
        wanted,
      );
      transforms.sort((a, b) => TRANSFORMS.indexOf(a) - TRANSFORMS.indexOf(b));
      spec = this.transform(original.spec, transforms);
      derivedFrom = { media_id: original.mediaId, trademark_id: original.trademarkId, transforms };
    } else {
      spec = this.fresh(subject);
      if (logoLike) {
        const entry = { spec, mediaId: subject.mediaId, trademarkId: subject.trademarkId };
        if (this.recent.length < RECENT_CAPACITY) this.recent.push(entry);
        else this.recent[random.int(0, RECENT_CAPACITY - 1)] = entry;
      }
    }
    return { mediaId: subject.mediaId, trademarkId: subject.trademarkId, svg: logoSvg(spec), derivedFrom };
  }

  /** The same drawing for another mark of the family (a designation, a refiling): same bytes. */
  sameAs(plan: LogoPlan, subject: LogoSubject): LogoPlan {
    return { ...plan, mediaId: subject.mediaId, trademarkId: subject.trademarkId };
  }

  private typeface(): Typeface {
    const random = this.random;
    return {
      family: random.pick(FAMILIES),
      weight: random.chance(0.6) ? 'bold' : 'normal',
      style: random.chance(0.15) ? 'italic' : 'normal',
      spacing: random.pick([0, 0, 0.04, 0.1]),
    };
  }

  private fresh(subject: LogoSubject): LogoSpec {
    const random = this.random;
    const combined = subject.featureType === 'combined';
    const deviceCode = subject.featureType === 'figurative' ? subject.viennaCodes[0] : random.chance(0.5) ? subject.viennaCodes[0] : undefined;
    const width = combined ? 480 : 400;
    return {
      width,
      height: combined ? 300 : 400,
      view: { x: 0, y: 0, width: combined ? 160 : 100, height: 100 },
      palette: palette(random),
      device: device(random, deviceCode),
      frame: frame(random),
      text: combined ? subject.text : null,
      typeface: this.typeface(),
      swatch: subject.featureType === 'colour',
    };
  }

  private transform(original: LogoSpec, transforms: readonly LogoTransform[]): LogoSpec {
    const random = this.random;
    let spec: LogoSpec = { ...original, view: { ...original.view }, typeface: { ...original.typeface } };
    for (const transform of transforms) {
      switch (transform) {
        case 'recolour': {
          const recoloured = palette(random, original.palette.hue + uniform(random, 60, 300));
          // Now and then keep the original's ground and change only the ink colours (when both grounds are light, so the ink still shows).
          const keepGround = random.chance(0.5) && isLight(recoloured.background) && isLight(original.palette.background);
          spec = { ...spec, palette: keepGround ? { ...recoloured, background: original.palette.background } : recoloured };
          break;
        }
        case 'rescale': {
          const factor = random.pick([0.5, 0.625, 0.75, 1.25, 1.5]);
          spec = { ...spec, width: Math.round(spec.width * factor), height: Math.round(spec.height * factor) };
          break;
        }
        case 'crop': {
          // Cut 6 to 15 % off one or two sides; the output keeps the cropped box's proportions.
          const view = spec.view;
          const cutX = view.width * random.int(6, 15) * 0.01;
          const cutY = view.height * random.int(6, 15) * 0.01;
          const left = random.chance(0.5);
          const top = random.chance(0.5);
          const cropped = { x: view.x + (left ? cutX : 0), y: view.y + (top ? cutY : 0), width: view.width - cutX, height: view.height - cutY };
          spec = {
            ...spec,
            view: cropped,
            width: Math.round((spec.width * cropped.width) / view.width),
            height: Math.round((spec.height * cropped.height) / view.height),
          };
          break;
        }
        case 'retypeset': {
          let typeface = this.typeface();
          for (let attempt = 0; attempt < 4 && typeface.family === spec.typeface.family && typeface.weight === spec.typeface.weight; attempt++)
            typeface = this.typeface();
          spec = { ...spec, typeface };
          break;
        }
      }
    }
    return spec;
  }
}
