/**
 * Country names as offices write them ("UNITED STATES", "Vietnam", "KOREA, REPUBLIC OF") to ISO
 * 3166-1 alpha-2 codes, from the English region names of the runtime's ICU data plus the formal
 * names registers use.
 */
import { foldText } from './text';

const FORMAL_NAMES: Readonly<Record<string, string>> = {
  'united states of america': 'US',
  usa: 'US',
  'great britain': 'GB',
  'korea republic of': 'KR',
  'republic of korea': 'KR',
  'viet nam': 'VN',
  'russian federation': 'RU',
  'china peoples republic of': 'CN',
  'peoples republic of china': 'CN',
  'taiwan republic of china': 'TW',
  'hong kong sar china': 'HK',
};

function buildIndex(): Map<string, string> {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const index = new Map<string, string>();
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      const name = names.of(code);
      if (name !== undefined && name !== code && code !== 'ZZ') index.set(foldText(name), code);
    }
  }
  for (const [name, code] of Object.entries(FORMAL_NAMES)) index.set(name, code);
  return index;
}

let index: Map<string, string> | null = null;

/** The ISO code of a country name, or null when the name is not a country's. */
export function countryCodeOfName(name: string): string | null {
  index ??= buildIndex();
  return index.get(foldText(name)) ?? null;
}
