/**
 * The route tags (`RouteDef.tag`) and what each groups, published as the OpenAPI document's
 * top-level `tags`. A route's tag must be one of these, so a misspelt tag fails the type-check
 * instead of appearing in the document without a description.
 */
export const TAG_DESCRIPTIONS = {
  Trademarks:
    'Trademark search and lookup, and what each record carries beside it: change history, provenance, prosecution history, related marks, coverage and proceedings.',
  Deadlines: 'Stateless computation of maintenance deadlines and opposition windows (nothing is stored), and the rule corpus behind both.',
  Proceedings: 'Oppositions, cancellations, appeals and other proceedings before the offices.',
  Reference:
    'Offices, jurisdictions, Nice classes, Vienna design categories and event types. Reference pool: never billed, and no RateLimit headers on these cached routes.',
  Suggest: 'Completions of mark texts and party names, and Nice classes and standard goods/services terms ranked for a text.',
  Analytics: 'Figures per office, counted on the catalog and cached about ten minutes.',
  Owners: 'Owner records as the offices name them, their marks and their corporate relationships.',
  Attorneys: 'Attorneys of record, their marks and their clients.',
  Firms: 'Law firms, their attorneys and the marks those attorneys handle.',
  Entities: 'Resolved entities: the owner records that belong to one company or person, and their marks.',
  Watches: 'Monitoring: watches turn changes in the catalog into alerts (plans with the monitoring feature; scope portfolios:manage).',
  Alerts: 'What watches found, with a triage status.',
  Portfolios: 'Named sets of marks: listed with the trademark filters and docketed with their deadlines.',
  'Saved searches': 'Trademark searches kept by name and run again, cursors included.',
  Webhooks:
    'Endpoints that receive signed event deliveries, and their delivery log. The deliveries themselves are described in the webhooks section of this document.',
  Events: "The organization's event log: exactly the bodies its webhooks carry (scope events:read).",
  'API keys': "Self-service management of the organization's API keys (scope api-keys:manage). A secret is shown once, at creation or rotation.",
  Organization: "The organization's usage, plan and request log (scope billing:read).",
  Feedback: 'Reports of data issues, bugs and ideas to the service team; any valid key, never billed.',
  Health: 'Liveness and readiness probes: no key, outside every limit, never metered.',
  Meta: 'This document and the OAuth metadata of the MCP endpoint; no key needed.',
} as const satisfies Record<string, string>;

export type Tag = keyof typeof TAG_DESCRIPTIONS;
