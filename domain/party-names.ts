/**
 * Party names: the legal forms companies and partnerships carry per country, and the canonical
 * name every party record keeps for entity resolution. The generator picks legal forms from
 * these tables; ingestion matches real parties with the same `canonicalName`, so a generated and
 * an ingested "Zorvex Technologies, Inc." fold to the same key.
 */
import { foldedWords } from './text';

/** Company legal forms by owner country (the generator's choice and the forms stripped below). */
export const LEGAL_FORMS: Readonly<Record<string, readonly string[]>> = {
  US: ['Inc.', 'LLC', 'Corporation', 'Co.'],
  GB: ['Ltd', 'Limited', 'PLC'],
  CA: ['Inc.', 'Ltd.', 'Corp.'],
  AU: ['Pty Ltd'],
  IE: ['Limited', 'DAC'],
  NZ: ['Limited'],
  SG: ['Pte. Ltd.'],
  IL: ['Ltd.'],
  DE: ['GmbH', 'AG', 'GmbH & Co. KG'],
  AT: ['GmbH', 'AG'],
  CH: ['AG', 'SA', 'GmbH'],
  FR: ['SAS', 'SA', 'SARL'],
  BE: ['SA', 'NV', 'BV'],
  IT: ['S.p.A.', 'S.r.l.'],
  ES: ['S.L.', 'S.A.'],
  MX: ['S.A. de C.V.', 'S. de R.L. de C.V.'],
  BR: ['Ltda.', 'S.A.'],
  NL: ['B.V.', 'N.V.'],
  SE: ['AB'],
  DK: ['A/S', 'ApS'],
  JP: ['Co., Ltd.', 'Kabushiki Kaisha', 'Corporation'],
  CN: ['Co., Ltd.', 'Company Limited'],
  TW: ['Co., Ltd.', 'Corporation'],
  HK: ['Limited', 'Company Limited'],
  KR: ['Co., Ltd.', 'Corporation'],
  IN: ['Private Limited', 'Limited'],
  TR: ['A.Ş.', 'Ltd. Şti.'],
};

/** Partnership forms by country. */
export const PARTNERSHIP_FORMS: Readonly<Record<string, string>> = {
  US: 'LP',
  GB: 'LLP',
  DE: 'KG',
  FR: 'SNC',
  CH: 'KG',
  AT: 'KG',
  NL: 'C.V.',
  IT: 'S.n.c.',
  ES: 'S.C.',
};

const LEGAL_FORM_TOKENS = new Set(
  Object.values(LEGAL_FORMS)
    .flat()
    .concat(Object.values(PARTNERSHIP_FORMS), ['LLP', 'Partnership'])
    .flatMap((form) => foldedWords(form)),
);

/**
 * Normalized name for entity resolution: accents folded, lowercase, punctuation removed, trailing
 * legal-form tokens ("inc", "gmbh", "co ltd") dropped. "Zorvex Technologies, Inc." → "zorvex technologies".
 */
export function canonicalName(name: string): string {
  const tokens = foldedWords(name);
  while (tokens.length > 1 && LEGAL_FORM_TOKENS.has(tokens[tokens.length - 1]!)) tokens.pop();
  return tokens.join(' ');
}
