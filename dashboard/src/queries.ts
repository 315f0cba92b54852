/**
 * Every GraphQL operation the dashboard sends, by name. They live here, beside the pages, as plain
 * strings (no client-side GraphQL library in the bundle); test/dashboard/queries.test.ts parses
 * each one and validates it against the server's schema, so a schema change that breaks a page
 * fails the test suite instead of the page. Each key is its operation's name.
 */

const ALERT_FIELDS = `fragment DashboardAlert on Alert {
  id
  watch_id
  watch_type
  trademark_id
  trademark { id mark_text office_code }
  status
  score
  signals { type strength detail }
  must_act_by
  opposition_window_status
  trigger { type }
  created_at
}`;

const TRADEMARK_SUMMARY = `fragment DashboardMark on Trademark {
  id
  mark_text
  office_code
  filing_date
  status { primary stage }
}`;

const DEADLINE_FIELDS = `fragment DashboardDeadline on PortfolioDeadline {
  trademark_id
  mark_text
  office_code
  type
  name
  due_date
  status
  urgency
  days_until_due
}`;

export const OPERATIONS = {
  // Checks a key at sign-in: any valid key may run it, and it spends nothing metered.
  Ping: `query Ping {
  ping
}`,

  Overview: `query Overview($months: Int!) {
  trademarkStats(months: $months, recent: 10) {
    total_marks
    by_office_status { office_code status_primary count }
    filings_by_month { month count }
    recent_changes { ...DashboardMark }
    stats_computed_at
  }
}
${TRADEMARK_SUMMARY}`,

  Alerts: `query Alerts($status: String, $limit: Int!, $cursor: String) {
  alerts(status: $status, limit: $limit, cursor: $cursor) {
    data { ...DashboardAlert }
    has_more
    pagination { cursor }
  }
}
${ALERT_FIELDS}`,

  AlertCreated: `subscription AlertCreated {
  alertCreated { ...DashboardAlert }
}
${ALERT_FIELDS}`,

  UpdateAlert: `mutation UpdateAlert($id: ID!, $status: String!) {
  updateAlert(id: $id, status: $status) { id status updated_at }
}`,

  Watches: `query Watches($cursor: String) {
  watches(limit: 100, cursor: $cursor) {
    data { id name watch_type status query evaluating_since created_at }
    has_more
    pagination { cursor }
  }
}`,

  PreviewWatch: `query PreviewWatch($watch_type: String!, $query: JSONObject!) {
  previewWatch(watch_type: $watch_type, query: $query, limit: 5) {
    estimated_match_count
    estimate_basis
    data { id mark_text office_code }
    scores { trademark_id score }
  }
}`,

  CreateWatch: `mutation CreateWatch($watch_type: String!, $name: String, $query: JSONObject!) {
  createWatch(watch_type: $watch_type, name: $name, query: $query) { id name watch_type status }
}`,

  PauseWatch: `mutation PauseWatch($id: ID!) {
  pauseWatch(id: $id) { id status }
}`,

  ResumeWatch: `mutation ResumeWatch($id: ID!) {
  resumeWatch(id: $id) { id status }
}`,

  WatchDiagnostics: `query WatchDiagnostics($id: ID!) {
  watchDiagnostics(id: $id) {
    status
    estimated_match_count
    evaluation { evaluating_since last_change_processed_at alerts_created last_error }
  }
}`,

  Usage: `query Usage {
  usage {
    billing_period { start end }
    by_endpoint_type { search { used limit } read { used limit } }
    rate_limits { search read monitoring utility reference check }
  }
  plan { name features }
}`,

  Portfolios: `query Portfolios($cursor: String) {
  portfolios(limit: 100, cursor: $cursor) { data { id name } has_more pagination { cursor } }
}`,

  PortfolioDeadlineTimeline: `query PortfolioDeadlineTimeline($id: ID!) {
  portfolioDeadlineTimeline(id: $id, months: 12, per_month: 20) {
    overdue { ...DashboardDeadlines }
    months { month ...DashboardDeadlines }
  }
}
fragment DashboardDeadlines on DeadlineCounts {
  count
  by_status { status count }
  deadlines { ...DashboardDeadline }
}
${DEADLINE_FIELDS}`,

  // Every deadline of one group of the timeline (a month, or the overdue ones), in the timeline's order.
  PortfolioDeadlineGroup: `query PortfolioDeadlineGroup($id: ID!, $month: String, $overdue: Boolean, $cursor: String) {
  portfolioDeadlines(id: $id, month: $month, overdue: $overdue, limit: 100, cursor: $cursor) {
    data { ...DashboardDeadline }
    has_more
    pagination { cursor }
  }
}
${DEADLINE_FIELDS}`,

  Webhooks: `query Webhooks($cursor: String) {
  webhookEndpoints(limit: 100, cursor: $cursor) {
    data { id url description status enabled_events consecutive_failures last_success_at last_failure_at }
    has_more
    pagination { cursor }
  }
}`,

  WebhookDeliveries: `query WebhookDeliveries($id: ID!, $cursor: String) {
  webhookDeliveries(id: $id, limit: 20, cursor: $cursor) {
    data { id event_type attempt status http_status error created_at }
    has_more
    pagination { cursor }
  }
}`,

  Mark: `query Mark($id: ID!) {
  trademark(id: $id) {
    ...DashboardMark
    owner_name
    application_number
    registration_number
    registration_date
    expiry_date
    classifications(full_goods_services: false) { nice_class }
    media { id kind mime_type url }
  }
}
${TRADEMARK_SUMMARY}`,

  // Its own operation, so that the next pages of a long history do not fetch the mark again.
  MarkHistory: `query MarkHistory($id: ID!, $cursor: String) {
  trademarkHistory(id: $id, sort: "event_date", limit: 100, cursor: $cursor) {
    data { id event_type event_type_description event_date }
    has_more
    pagination { cursor }
  }
}`,
} as const;

export type OperationName = keyof typeof OPERATIONS;
