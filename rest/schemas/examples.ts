/**
 * Examples of the main operations for the OpenAPI document: real answers of this service (the demo
 * data, a fixed as_of_date), so they show what a client gets. test/rest/openapi-document.test.ts
 * checks each against its route's schemas and recomputes the deadline example.
 */

/** GET /v1/trademarks?offices=US&status_primary=active&sort=-filing_date&limit=2 */
export const searchTrademarksExample = {
  parameters: { offices: ['US'], status_primary: ['active'], sort: '-filing_date', limit: 2 },
  response: {
    object: 'list',
    data: [
      {
        id: 'tm_nse4s8bq1cb2phgkdj1s',
        object: 'trademark',
        mark_text: 'ARROW PATH',
        owner_name: 'Caio Industries LLC',
        status: {
          primary: 'active',
          stage: 'registered',
        },
        office_code: 'US',
        jurisdiction_code: 'US',
        filing_date: '2025-08-15',
        registration_date: '2026-06-07',
        classifications: [
          {
            nice_class: 28,
            goods_services_text: 'golf clubs; mah-jong; balls for games',
          },
        ],
        owners: [
          {
            id: 'own_g7w5a96rqb62vxhfcema',
            name: 'Caio Industries LLC',
            country_code: 'US',
            entity_id: 'ent_6sdg6q4v48jw87nx812p',
            entity_id_type: 'derived',
          },
        ],
      },
      {
        id: 'tm_h6nff19zy9xap5fxrg99',
        object: 'trademark',
        mark_text: 'REEX',
        owner_name: 'Meatcyvify Health Co.',
        status: {
          primary: 'active',
          stage: 'registered',
        },
        office_code: 'US',
        jurisdiction_code: 'US',
        filing_date: '2025-07-02',
        registration_date: '2026-06-21',
        classifications: [
          {
            nice_class: 42,
            goods_services_text:
              'dress designing; computer programming; quality control; land surveying; industrial design; scientific research; textile testing',
          },
        ],
        owners: [
          {
            id: 'own_t1nwzzt0f6vyef8t8d8p',
            name: 'Meatcyvify Health Co.',
            country_code: 'US',
            entity_id: 'ent_ckcb83s4m75d1r4smz6t',
            entity_id_type: 'derived',
          },
        ],
      },
    ],
    has_more: true,
    pagination: {
      cursor:
        'eyJiIjoid1VzdXpOT2FkRThfQ1V1SU5sZUZPZSIsInMiOjMwMCwiYSI6WyIyMDI1LTA3LTAyIiwidG1faDZuZmYxOXp5OXhhcDVmeHJnOTkiXSwidCI6MTc5NTYxMjQyNDI5OH0.dLUf8amPhzyeUsYRffpzxg',
    },
    search_meta: {
      total_results: null,
      total_count_exact: null,
      total_count_approximate: null,
    },
    request_id: 'req_01m89dee2bwtd6hjknkhb6fb',
  },
};

/** GET /v1/trademarks/{id}: the first mark of the search example. */
export const getTrademarkExample = {
  parameters: { id: 'tm_nse4s8bq1cb2phgkdj1s' },
  response: {
    id: 'tm_nse4s8bq1cb2phgkdj1s',
    object: 'trademark',
    mark_text: 'ARROW PATH',
    application_number: '99072307',
    registration_number: '7845021',
    ir_number: null,
    office_code: 'US',
    jurisdiction_code: 'US',
    filing_route: 'national',
    scope_kind: 'national',
    mark_feature_type: 'combined',
    mark_legal_category: 'individual',
    right_kind: 'trademark',
    is_series_mark: false,
    series_id: null,
    is_retracted: false,
    is_madrid: false,
    has_media: true,
    has_proceedings: false,
    vienna_codes: ['03.07', '26.01'],
    media: [
      {
        id: 'med_j1a6qvcev2pxxrnbef9z',
        kind: 'image',
        mime_type: 'image/png',
        url: '/v1/media/med_j1a6qvcev2pxxrnbef9z',
      },
    ],
    status: {
      primary: 'active',
      stage: 'registered',
      reason: 'registration_in_force',
      challenge_states: [],
      office_status: null,
    },
    filing_date: '2025-08-15',
    priority_date: null,
    publication_date: '2026-03-09',
    registration_date: '2026-06-07',
    expiry_date: '2036-06-07',
    renewal_due_date: '2036-06-07',
    termination_date: null,
    international_registration_date: null,
    designation_date: null,
    classifications: [
      {
        nice_class: 28,
        goods_services_text: 'golf clubs; mah-jong; balls for games',
        nice_edition: '12-2025',
      },
    ],
    owners: [
      {
        id: 'own_g7w5a96rqb62vxhfcema',
        name: 'Caio Industries LLC',
        country_code: 'US',
        entity_id: 'ent_6sdg6q4v48jw87nx812p',
        entity_id_type: 'derived',
        companies: [],
      },
    ],
    attorneys: [
      {
        id: 'att_1xc6treekz1717pd6ezs',
        name: 'Jonas Fischer',
        country_code: 'CH',
        firm_id: 'firm_960ptsk7233q2m4k8846',
        firm_name: 'Weber IP',
      },
    ],
    owner_history: [
      {
        owner_id: 'own_g7w5a96rqb62vxhfcema',
        name: 'Caio Industries LLC',
        role: 'applicant',
        source: 'office_record',
        office_party_type: null,
        recorded_date: null,
        reference: null,
        conveyance: null,
      },
    ],
    opposition_window: {
      status: 'closed',
      office_code: 'US',
      filing_route: 'domestic',
      trigger_event: 'application_publication',
      publication_date: '2026-03-09',
      window_opens: '2026-03-09',
      window_closes: '2026-04-08',
      window_closes_nominal: '2026-04-08',
      extended_window_closes: '2026-05-08',
      must_act_by: '2026-04-08',
      days_remaining: -231,
      approximate: false,
    },
    version: 4,
    source_updated_at: '2026-06-07T00:00:00.000Z',
    created_at: '2025-08-20T12:48:09.000Z',
    updated_at: '2026-06-10T16:21:04.000Z',
    request_id: 'req_01m89dee5t3db9hqm2xz13h1',
  },
};

/** POST /v1/deadlines/compute: a US registration of 16 March 2021, as of 25 November 2026. */
export const computeDeadlinesExample = {
  body: { items: [{ jurisdiction: 'US', registration_date: '2021-03-16' }], as_of_date: '2026-11-25' },
  response: {
    object: 'list',
    data: [
      {
        object: 'deadline_computation',
        jurisdiction_code: 'US',
        filing_route: 'national',
        supported: true,
        unsupported_reason: null,
        deadlines: [
          {
            type: 'declaration_of_use',
            name: 'Declaration of use (Section 8), between 5th and 6th anniversary of registration',
            jurisdiction_code: 'US',
            trigger_date: '2021-03-16',
            trigger_field: 'registration_date',
            window_opens: '2026-03-16',
            due_date: '2027-03-16',
            grace_expiry: '2027-09-16',
            status: 'window_open',
            days_until_due: 111,
            days_until_grace_expiry: 295,
            urgency: 'routine',
            consequence_if_missed: 'cancellation',
            recurring: false,
            optional: false,
            approximate: false,
          },
          {
            type: 'incontestability',
            name: "Declaration of incontestability (Section 15), first eligibility window after 5 years' continuous use",
            jurisdiction_code: 'US',
            trigger_date: '2021-03-16',
            trigger_field: 'registration_date',
            window_opens: '2026-03-16',
            due_date: '2027-03-16',
            grace_expiry: '2027-03-16',
            status: 'window_open',
            days_until_due: 111,
            days_until_grace_expiry: 111,
            urgency: 'routine',
            consequence_if_missed: 'none',
            recurring: false,
            optional: true,
            approximate: false,
          },
          {
            type: 'renewal',
            name: 'Combined declaration of use and renewal (Sections 8 & 9), every 10 years from registration',
            jurisdiction_code: 'US',
            trigger_date: '2021-03-16',
            trigger_field: 'registration_date',
            window_opens: '2030-03-16',
            due_date: '2031-03-17',
            grace_expiry: '2031-09-16',
            status: 'future',
            days_until_due: 1573,
            days_until_grace_expiry: 1756,
            urgency: 'routine',
            consequence_if_missed: 'expiration',
            recurring: true,
            optional: false,
            approximate: false,
          },
        ],
        missing_trigger_fields: [],
      },
    ],
    has_more: false,
    pagination: {
      cursor: null,
    },
    request_id: 'req_01m89dee8qs113k5mw5p87y9',
  },
};

/** POST /v1/watches: a similarity watch on two offices and two classes (offices are stored lowercase). */
export const createWatchExample = {
  body: {
    watch_type: 'similarity',
    name: 'Similar to NORTHWIND',
    query: { q: 'Northwind', score_threshold: 0.8, filters: { offices: ['US', 'EM'], niceClasses: [9, 42] } },
    metadata: { matter: 'NW-2026-014' },
  },
  response: {
    id: 'wch_01m89deeb89a8tw273s6fzjv',
    object: 'watch',
    name: 'Similar to NORTHWIND',
    watch_type: 'similarity',
    status: 'active',
    query: {
      q: 'Northwind',
      score_threshold: 0.8,
      filters: {
        offices: ['us', 'em'],
        niceClasses: [9, 42],
      },
    },
    metadata: {
      matter: 'NW-2026-014',
    },
    evaluating_since: '2026-11-25T13:13:44.552Z',
    created_at: '2026-11-25T13:13:44.552Z',
    updated_at: '2026-11-25T13:13:44.552Z',
    request_id: 'req_01m89deeajqdpgf5z57qgc8f',
  },
};
