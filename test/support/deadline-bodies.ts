/** The shapes of the deadline area's REST answers, as the tests read them (spec: Deadline computation). */
export interface ListBody<T = Record<string, unknown>> {
  object: string;
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
  request_id?: string;
}

export interface Deadline {
  type: string;
  jurisdiction_code: string;
  trigger_date: string;
  window_opens: string | null;
  due_date: string;
  grace_expiry: string;
  status: string;
  days_until_due: number;
  urgency: string;
  optional: boolean;
  recurring: boolean;
  trigger_field: string;
  consequence_if_missed: string;
  approximate: boolean;
}

export interface Computation {
  object: string;
  jurisdiction_code: string;
  filing_route: string;
  supported: boolean;
  unsupported_reason: string | null;
  deadlines: Deadline[];
  missing_trigger_fields: string[];
}
