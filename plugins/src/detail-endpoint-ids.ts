/**
 * The ids of the built-in checks: exactly the path suffixes of the
 * inspection service's file-analysis detail endpoints
 * (spec/inspection-service.md, "File-analysis detail endpoints"), in the
 * spec's order. Pinned here so the project does not need the spec to know
 * them; a meta-test compares both.
 */
export const DETAIL_ENDPOINT_IDS = [
  'mpegts-errors',
  'mpegts-pcr-intervals',
  'mpegts-psi-table-positions',
  'mpegts-pat-intervals',
  'mpegts-pmt-intervals',
  'mpegts-pcr-monotonicity',
  'mpegts-pcr-pts-drift',
  'mpegts-max-pts-intervals',
  'klv-raw-decode-errors',
  'klv-universal-key-errors',
  'klv-checksum-errors',
  'klv-unknown-tag-errors',
  'klv-duplicate-tag-errors',
  'klv-mandatory-field-errors',
  'klv-timestamp-monotonicity',
  'klv-packet-rate-consistency',
  'klv-stream-vs-klv-drift',
] as const;

export type DetailEndpointId = (typeof DETAIL_ENDPOINT_IDS)[number];
