/**
 * Which edition of the Nice Classification a filing is classified under: the 13th edition
 * (NCL 13-2026) applies to filings from 1 January 2026, the 12th before (data/SOURCES.md).
 */
import type { IsoDate } from './dates';

const NCL_13_FROM: IsoDate = '2026-01-01';

export function niceEditionFor(filingDate: IsoDate): string {
  return filingDate >= NCL_13_FROM ? '13-2026' : '12-2025';
}
