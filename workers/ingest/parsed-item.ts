/** What the mapping of one record of any bulk format gives the write path. */
import type { MarkInput } from './mark-input';
import type { AssignmentRecord } from './uspto/assignments';
import type { ProceedingRecord } from './uspto/ttab';

export type ParsedItem =
  { kind: 'mark'; mark: MarkInput } | { kind: 'assignment'; assignment: AssignmentRecord } | { kind: 'proceeding'; proceeding: ProceedingRecord };
