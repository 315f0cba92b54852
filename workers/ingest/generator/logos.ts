/**
 * Logos for the generated marks, as SVG text (rendered to PNG by the seed, workers/ingest/seed.ts):
 * a device drawn from simple shapes chosen by the mark's Vienna codes, in a frame, with the mark's
 * words styled beneath it for combined marks; a colour swatch for colour marks.
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
  frame: 'none' | 'circle' | 'rounded' | 'hexagon';
  text: string | null;
  typeface: Typeface;
  swatch: boolean;
}

const PALETTES: readonly Palette[] = [
  { background: '#ffffff', primary: '#1d4e89', secondary: '#f2a900', ink: '#1b1b1b' },
  { background: '#ffffff', primary: '#c8102e', secondary: '#222222', ink: '#222222' },
  { background: '#fdf6e3', primary: '#2e7d32', secondary: '#a5d6a7', ink: '#1b3d1f' },
  { background: '#ffffff', primary: '#6a1b9a', secondary: '#ffb300', ink: '#311b92' },
  { background: '#0b1f3a', primary: '#ffd166', secondary: '#06d6a0', ink: '#ffffff' },
  { background: '#ffffff', primary: '#ef6c00', secondary: '#37474f', ink: '#263238' },
  { background: '#f5f5f5', primary: '#00838f', secondary: '#ff7043', ink: '#004d40' },
  { background: '#ffffff', primary: '#111111', secondary: '#9e9e9e', ink: '#111111' },
  { background: '#fff8e1', primary: '#8d6e63', secondary: '#d84315', ink: '#3e2723' },
  { background: '#ffffff', primary: '#0057b7', secondary: '#ffd700', ink: '#0057b7' },
];

const FAMILIES = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'DejaVu Sans Mono', 'Liberation Sans Narrow'];
const GENERIC: Record<string, string> = { Serif: 'serif', Mono: 'monospace' };

const FRAMES = new WeightedTable<LogoSpec['frame']>([
  { value: 'none', weight: 4 },
  { value: 'circle', weight: 3 },
  { value: 'rounded', weight: 2 },
  { value: 'hexagon', weight: 1 },
]);

/** A near-duplicate's transforms: one to three, in this order. */
const TRANSFORMS: readonly LogoTransform[] = ['recolour', 'rescale', 'crop', 'retypeset'];

/** Feature types that get a near-duplicate now and then, and are remembered as originals. */
const LOGO_FEATURES: ReadonlySet<MarkFeatureType> = new Set(['figurative', 'combined']);
const VARIANT_SHARE = 0.12;
const RECENT_CAPACITY = 512;

/** A `#rrggbb` colour lighter than mid-grey. */
const isLight = (hex: string): boolean => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16) > 384;

const round = (value: number): number => Math.round(value * 10) / 10;

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
  const outer = ring(count, 44, -90);
  const inner = ring(count, random.int(16, 26), -90 + 180 / count);
  return `<polygon points="${points(outer.flatMap((point, i) => [point, inner[i]!]))}" fill="{p}" stroke="{i}" stroke-width="2"/>`;
}

function sun(random: Random): string {
  const rays = ring(random.int(8, 16), 46, random.int(0, 30))
    .map(([x, y]) => `<line x1="50" y1="50" x2="${round(x)}" y2="${round(y)}" stroke="{s}" stroke-width="${random.int(3, 6)}"/>`)
    .join('');
  return `${rays}<circle cx="50" cy="50" r="${random.int(18, 26)}" fill="{p}"/>`;
}

function globe(random: Random): string {
  const meridians = Array.from(
    { length: random.int(1, 3) },
    (_, i) => `<ellipse cx="50" cy="50" rx="${12 + i * 12}" ry="40" fill="none" stroke="{s}" stroke-width="3"/>`,
  ).join('');
  return `<circle cx="50" cy="50" r="40" fill="{p}"/>${meridians}<line x1="10" y1="50" x2="90" y2="50" stroke="{s}" stroke-width="3"/>`;
}

function crescent(random: Random): string {
  const offset = random.int(12, 22);
  return `<path d="M50 8 A42 42 0 1 0 50 92 A${42 - offset / 3} 42 0 1 1 50 8 Z" fill="{p}" transform="rotate(${random.int(-40, 40)} 50 50)"/>`;
}

function creature(random: Random): string {
  const body = `<ellipse cx="${random.int(42, 50)}" cy="58" rx="${random.int(26, 34)}" ry="${random.int(16, 24)}" fill="{p}"/>`;
  const head = `<circle cx="${random.int(70, 78)}" cy="${random.int(32, 42)}" r="${random.int(10, 15)}" fill="{p}"/>`;
  const wing = `<polygon points="${points([
    [40, 50],
    [random.int(18, 30), random.int(12, 26)],
    [60, 48],
  ])}" fill="{s}"/>`;
  const legs = `<rect x="30" y="70" width="6" height="20" fill="{i}"/><rect x="56" y="70" width="6" height="20" fill="{i}"/>`;
  return body + wing + head + (random.chance(0.6) ? legs : '');
}

function plant(random: Random, kind: string): string {
  if (kind === '05.01') {
    const tiers = random.int(2, 4);
    const crowns = Array.from({ length: tiers }, (_, i) => {
      const top = 8 + i * (60 / tiers);
      return `<polygon points="${points([
        [50, top],
        [50 - 16 - i * 8, top + 34],
        [50 + 16 + i * 8, top + 34],
      ])}" fill="{p}"/>`;
    }).join('');
    return `<rect x="45" y="70" width="10" height="24" fill="{i}"/>${crowns}`;
  }
  if (kind === '05.03')
    return `<path d="M50 6 Q${random.int(85, 98)} 50 50 94 Q${random.int(2, 15)} 50 50 6 Z" fill="{p}"/><line x1="50" y1="12" x2="50" y2="90" stroke="{s}" stroke-width="3"/>`;
  const petals = ring(random.int(5, 8), 24, random.int(0, 40))
    .map(([x, y]) => `<circle cx="${round(x)}" cy="${round(y)}" r="${random.int(14, 18)}" fill="{p}"/>`)
    .join('');
  return `${petals}<circle cx="50" cy="50" r="${random.int(10, 14)}" fill="{s}"/>`;
}

function emblem(random: Random, kind: string): string {
  switch (kind) {
    case '24.09':
      return `<polygon points="${points([
        [10, 80],
        [10, 30],
        [30, 55],
        [50, 20],
        [70, 55],
        [90, 30],
        [90, 80],
      ])}" fill="{p}"/><rect x="10" y="78" width="80" height="${random.int(8, 14)}" fill="{s}"/>`;
    case '24.01':
      return `<path d="M50 6 L90 20 L86 58 Q78 84 50 96 Q22 84 14 58 L10 20 Z" fill="{p}"/><path d="M50 ${random.int(18, 30)} L50 86 M${random.int(24, 32)} 46 L${random.int(68, 76)} 46" stroke="{s}" stroke-width="${random.int(5, 9)}"/>`;
    case '24.15':
      return `<polygon points="${points([
        [8, 42],
        [60, 42],
        [60, 22],
        [94, 50],
        [60, 78],
        [60, 58],
        [8, 58],
      ])}" fill="{p}" transform="rotate(${random.pick([0, -45, 45, -90])} 50 50)"/>`;
    case '26.03':
      return Array.from({ length: random.int(1, 3) }, (_, i) => {
        const inset = i * 12;
        return `<polygon points="${points([
          [50, 8 + inset],
          [92 - inset, 88 - inset / 2],
          [8 + inset, 88 - inset / 2],
        ])}" fill="${i % 2 === 0 ? '{p}' : '{s}'}"/>`;
      }).join('');
    case '02.01':
    case '02.03':
      return `<circle cx="50" cy="22" r="14" fill="{p}"/><polygon points="${points([
        [50 - random.int(10, 16), 40],
        [50 + random.int(10, 16), 40],
        [50 + random.int(18, 30), 94],
        [50 - random.int(18, 30), 94],
      ])}" fill="{p}"/>`;
    default: {
      const count = random.int(1, 3);
      return Array.from({ length: count }, (_, i) => `<circle cx="50" cy="50" r="${44 - i * 14}" fill="${i % 2 === 0 ? '{p}' : '{s}'}"/>`).join('');
    }
  }
}

/** The device for a Vienna division (the figurative marks' devices map to these). */
function device(random: Random, vienna: string | undefined): string {
  const kind = vienna ?? random.pick(['01.01', '24.01', '26.01', '26.03', '05.03', '01.05']);
  if (kind === '01.01') return star(random);
  if (kind === '01.03') return sun(random);
  if (kind === '01.05') return globe(random);
  if (kind === '01.07') return crescent(random);
  if (kind.startsWith('03.') || kind.startsWith('04.')) return creature(random);
  if (kind.startsWith('05.')) return plant(random, kind);
  return emblem(random, kind);
}

function frameSvg(frame: LogoSpec['frame']): string {
  switch (frame) {
    case 'none':
      return '';
    case 'circle':
      return '<circle cx="50" cy="50" r="49" fill="none" stroke="{s}" stroke-width="3"/>';
    case 'rounded':
      return '<rect x="1.5" y="1.5" width="97" height="97" rx="16" fill="none" stroke="{s}" stroke-width="3"/>';
    case 'hexagon':
      return `<polygon points="${points(ring(6, 49, -90))}" fill="none" stroke="{s}" stroke-width="3"/>`;
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
    body = colour(frameSvg(spec.frame) + `<g transform="translate(10 10) scale(0.8)">${spec.device}</g>`);
  } else {
    // Combined: the device in the upper part of a 160 × 100 box, the words beneath it.
    // Capitals are about 0.75 em wide in bold sans faces, 0.68 em otherwise: sized to fit 148 units.
    const letters = [...spec.text].length;
    const advance = (spec.typeface.weight === 'bold' ? 0.75 : 0.68) + spec.typeface.spacing;
    const size = round(Math.min(20, 148 / Math.max(1, letters) / advance));
    const text = `<text x="80" y="93" text-anchor="middle" font-family="${escapeXml(fontFamily(spec.typeface.family))}" font-size="${size}" font-weight="${spec.typeface.weight}" font-style="${spec.typeface.style}" letter-spacing="${round(spec.typeface.spacing * size)}" fill="${palette.ink}">${escapeXml(spec.text)}</text>`;
    body = colour(`<g transform="translate(48 3) scale(0.64)">${frameSvg(spec.frame)}<g transform="translate(10 10) scale(0.8)">${spec.device}</g></g>`) + text;
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
      palette: random.pick(PALETTES),
      device: device(random, deviceCode),
      frame: FRAMES.pick(random),
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
          const others = PALETTES.filter((palette) => palette !== original.palette);
          const palette = random.pick(others);
          // Now and then keep the original's ground and change only the ink colours (when both grounds are light, so the ink still shows).
          const keepGround = random.chance(0.5) && isLight(palette.background) && isLight(original.palette.background);
          spec = { ...spec, palette: keepGround ? { ...palette, background: original.palette.background } : palette };
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
